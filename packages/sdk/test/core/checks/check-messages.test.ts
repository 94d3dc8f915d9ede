import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  formatProblems,
  optionProblems,
  type Problem,
  valueTypeName,
} from '../../../src/core/checks/messages.js';
import { OPTION_CHECKS } from '../../../src/core/checks/schemas.generated.js';

// The SDK checks its options without zod (zod loads only when a refusal must be described), yet its
// messages must read as zod's do for parameters: these tests hold the two formats equal.

const zodProblems = (error: z.ZodError): Problem[] =>
  error.issues.map((issue) => ({ message: issue.message, path: issue.path as (string | number)[] }));

describe('formatProblems', () => {
  it('writes problems as zod prettifyError does: shallowest first, quoted keys, indexes', () => {
    const schema = z.object({
      headers: z.record(z.string(), z.string()),
      timeout: z.number(),
      items: z.array(z.string()),
    });
    const result = schema.safeParse({ headers: { 'x-id': 1, plain: 2 }, timeout: 'x', items: ['a', 3] });
    const error = (result as { error: z.ZodError }).error;
    const written = formatProblems(zodProblems(error));
    expect(written).toBe(z.prettifyError(error));
    expect(written.startsWith('✖ Invalid input: expected number, received string\n  → at timeout\n')).toBe(
      true,
    );
    expect(written).toContain('→ at headers["x-id"]');
    expect(written).toContain('→ at items[1]');
  });

  it('writes a problem of the value itself without a path line', () => {
    const result = z.object({}).safeParse(7);
    const error = (result as { error: z.ZodError }).error;
    expect(formatProblems(zodProblems(error))).toBe(z.prettifyError(error));
  });
});

describe('optionProblems', () => {
  it.each([
    ['null', null],
    ['an array', []],
    ['a string', 'fast'],
    ['NaN', Number.NaN],
    ['a function', () => 1],
    ['a bigint', 1n],
  ])('names %s as zod does when options are not an object', (_, value) => {
    const result = z.object({}).safeParse(value);
    const zodMessage = (result as { error: z.ZodError }).error.issues[0]?.message;
    expect(OPTION_CHECKS.toArray.check(value)).toBe(false);
    expect(optionProblems(OPTION_CHECKS.toArray, value)).toEqual([{ message: zodMessage }]);
  });

  it.each([
    ['null', null],
    ['an array', []],
    ['a string', 'fast'],
    ['NaN', Number.NaN],
    ['a Date', new Date(0)],
    ['a Map', new Map()],
    ['a function', () => 1],
    ['a bigint', 1n],
  ])('names %s as zod does where a number is expected', (_, value) => {
    const result = z.number().safeParse(value);
    const zodMessage = (result as { error: z.ZodError }).error.issues[0]?.message;
    expect(`Invalid input: expected number, received ${valueTypeName(value)}`).toBe(zodMessage);
  });

  it('gives each problem its path from the options and lists them in the order of the keys given', () => {
    const given = { defaultHeaders: { 'x-id': 1, plain: 2 }, timeout: 0, maxRetries: undefined };
    expect(OPTION_CHECKS.client.check(given)).toBe(false);
    expect(optionProblems(OPTION_CHECKS.client, given)).toEqual([
      { message: 'Expected header values to be strings', path: ['defaultHeaders', 'x-id'] },
      { message: 'Expected header values to be strings', path: ['defaultHeaders', 'plain'] },
      { message: 'Expected a number of milliseconds from 1 to 2147483647', path: ['timeout'] },
    ]);
  });

  it("lists a quota's unknown fields first, then its fields in order, missing ones included", () => {
    const quota = { perSeconds: 0, every: 5 };
    expect(OPTION_CHECKS.quota.check({ quota })).toBe(false);
    expect(optionProblems(OPTION_CHECKS.quota, { quota })).toEqual([
      {
        message: 'Unknown quota field `every`: expected requests, perSeconds or marginMs',
        path: ['quota', 'every'],
      },
      { message: 'Expected an integer of at least 1', path: ['quota', 'requests'] },
      { message: 'Expected a number of seconds above 0', path: ['quota', 'perSeconds'] },
    ]);
  });

  it('names the quota field closest to a misspelt one (`perSecond` for `perSeconds`)', () => {
    const quota = { requests: 100, perSecond: 60 };
    expect(optionProblems(OPTION_CHECKS.quota, { quota })).toEqual([
      {
        message:
          'Unknown quota field `perSecond` (did you mean `perSeconds`?): expected requests, perSeconds or marginMs',
        path: ['quota', 'perSecond'],
      },
      { message: 'Expected a number of seconds above 0', path: ['quota', 'perSeconds'] },
    ]);
  });

  it('refuses a value that is not a plain object as a whole, not field by field', () => {
    expect(optionProblems(OPTION_CHECKS.quota, { quota: new Map() })).toEqual([
      { message: 'Invalid input: expected { requests, perSeconds }, received Map', path: ['quota'] },
    ]);
    expect(optionProblems(OPTION_CHECKS.request, { headers: [] })).toEqual([
      { message: 'Invalid input: expected record, received array', path: ['headers'] },
    ]);
  });
});

describe('optionProblems of a union (hedge: true, false or { afterMs })', () => {
  const hedgeProblems = (hedge: unknown) => optionProblems(OPTION_CHECKS.request, { hedge });
  const union = 'Invalid input: expected true, false or { afterMs }, received';

  it("names the union's message alone when the value has no branch's shape", () => {
    expect(hedgeProblems('yes')).toEqual([{ message: `${union} string`, path: ['hedge'] }]);
    expect(hedgeProblems(new Date(0))).toEqual([{ message: `${union} Date`, path: ['hedge'] }]);
  });

  it('names the problems inside the branch whose shape the value has, and not the other branches', () => {
    expect(hedgeProblems({ afterMs: 0 })).toEqual([
      { message: 'Expected a number of milliseconds from 1 to 2147483647', path: ['hedge', 'afterMs'] },
    ]);
    expect(hedgeProblems({ afterMs: 5, after: 5 })).toEqual([
      {
        message: 'Unknown hedge field `after` (did you mean `afterMs`?): expected afterMs',
        path: ['hedge', 'after'],
      },
    ]);
  });
});
