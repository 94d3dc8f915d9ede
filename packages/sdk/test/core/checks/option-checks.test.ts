import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OPTION_CHECKS } from '../../../src/core/checks/schemas.generated.js';
import { OPTION_SCHEMAS } from '../../../src/core/checks/schemas.js';

// The options' schemas are the source of truth; the compiled checks the SDK runs are a copy of them. For
// options made of values of every kind the options take or get wrong, both must give the same answer.

const noop = () => undefined;

/** Values worth giving any option: right for some, wrong for others, edges of every bound. */
const values = fc.constantFrom<unknown>(
  undefined,
  null,
  true,
  'debug',
  'verbose',
  '',
  -1,
  0,
  1,
  1.5,
  16,
  17,
  1_000,
  1_001,
  2_147_483_647,
  2_147_483_648,
  2 ** 53,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  [],
  {},
  Object.create(null),
  new Map(),
  new Date(0),
  noop,
  new AbortController().signal,
  { dispatch: noop },
  { debug: noop, info: noop, warn: noop, error: noop },
  { debug: noop, info: noop, warn: noop },
  { wait: noop, pause: noop },
  { 'x-id': 'a' },
  { 'x-id': 1 },
  { flag: true, size: 2.5 },
  { nested: {} },
  { requests: 1, perSeconds: 0.5 },
  { requests: 1, perSeconds: 1, marginMs: 0 },
  { requests: 0, perSeconds: 1 },
  { requests: 1, perSeconds: 0 },
  { requests: 1 },
  { requests: 1, perSeconds: 1, every: 5 },
  { requests: 1, perSeconds: 1, marginMs: -1 },
);

describe('compiled option checks agree with their schemas', () => {
  it.each(Object.keys(OPTION_SCHEMAS) as (keyof typeof OPTION_SCHEMAS)[])('the %s options', (name) => {
    const schema = OPTION_SCHEMAS[name];
    const { check, names } = OPTION_CHECKS[name];
    expect(names).toEqual(Object.keys(schema.shape));
    const options = fc.oneof(
      fc.dictionary(fc.constantFrom(...names), values, { maxKeys: 4 }),
      values,
      fc.constant({}),
    );
    fc.assert(
      fc.property(options, (given) => {
        expect(check(given), fc.stringify(given)).toBe(schema.safeParse(given).success);
      }),
      { numRuns: 1_000 },
    );
  });

  it('the committed checks are what the schemas generate now', () => {
    const script = new URL('../../../scripts/write-option-checks.ts', import.meta.url).pathname;
    const run = spawnSync(process.execPath, ['--import', 'tsx', script, '--check'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
