import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  BODY_CHECKS,
  type Check,
  ERROR_BODY_CHECKS,
  PATH_CHECKS,
  QUERY_CHECKS,
  RESPONSE_CHECKS,
} from '../src/compiled/validators.generated.js';
import { ApiErrorBody, type EndpointDefinition, endpointList, FlatErrorBody } from '../src/index.js';
import * as samples from './samples.js';

// zod is the source of truth; the compiled checks are a fast copy of it. For valid bodies, for each of a
// great many mutations of them, and for arbitrary JSON, a compiled check and zod must give the same answer.

const list = (item: unknown) => ({
  data: [item, item],
  pagination: { count: 2, page: 1, page_size: 25, total_pages: 1 },
});
const one = (item: unknown) => ({ data: item });

/** A valid success body of each operation. */
const VALID_RESPONSES: Record<string, unknown> = {
  listUsers: list(samples.user),
  retrieveUser: one(samples.user),
  listTeams: list(samples.team),
  retrieveTeam: one(samples.team),
  listRecordings: list(samples.recording),
  retrieveRecording: one(samples.recordingDetail),
  retrieveRecordingTranscript: one(samples.recordingTranscript),
  listCalls: list(samples.call),
  retrieveCall: one(samples.call),
  retrieveCallTranscript: one(samples.callTranscript),
  addAudienceMember: samples.audienceMember,
  submitLead: { received: true },
};

/** Values worth putting anywhere: of every JSON type, edges of the contract's formats, near misses. */
const replacement = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(
    '',
    ' ',
    '2026-02-30T10:00:00Z',
    '2026-02-28T10:00:00Z',
    '2026-02-28T10:00:00',
    '2026-02-28 10:00:00Z',
    '2024-02-29T23:59:59.999+05:30',
    '5b3c1f0e-8d2a-4f6b-9c1d-2e3f4a5b6c7d',
    '5B3C1F0E-8D2A-4F6B-9C1D-2E3F4A5B6C7D',
    '5b3c1f0e8d2a4f6b9c1d2e3f4a5b6c7d',
    'a@b.co',
    'a@b',
    'A.B+c@example-mail.org',
    '+14155550123',
    'integration',
    'voice_agent',
    'Voice_Agent',
    -1,
    0,
    1.5,
    2 ** 53,
    Number.MAX_SAFE_INTEGER,
    null,
    true,
    [],
    {},
  ),
  fc.uuid(),
  fc.emailAddress(),
  fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
);

type Path = (string | number)[];

/** Every path to a value inside `value`, the root included. */
function paths(value: unknown, at: Path = []): Path[] {
  const found: Path[] = [at];
  if (Array.isArray(value))
    for (const [index, item] of value.entries()) found.push(...paths(item, [...at, index]));
  else if (typeof value === 'object' && value !== null)
    for (const [key, item] of Object.entries(value)) found.push(...paths(item, [...at, key]));
  return found;
}

/** A copy of `value` with the value at `path` replaced, or removed (`undefined`). */
function mutate(value: unknown, path: Path, next: unknown): unknown {
  if (path.length === 0) return next;
  const [head, ...rest] = path as [string | number, ...Path];
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<
    string | number,
    unknown
  >;
  if (rest.length === 0 && next === undefined) delete copy[head];
  else copy[head] = mutate(copy[head], rest, next);
  return copy;
}

/** The value at `path` inside `value`. */
function valueAt(value: unknown, path: Path): unknown {
  return path.reduce<unknown>((parent, key) => (parent as Record<string | number, unknown>)[key], value);
}

/** Valid values and one-place mutations of them (replaced, removed, or an extra key), plus arbitrary JSON. */
function candidates(valid: unknown): fc.Arbitrary<unknown> {
  const where = paths(valid);
  // An extra key goes into objects only: on an array, a key such as `length` would break the array itself.
  const objects = where.filter((path) => {
    const found = valueAt(valid, path);
    return typeof found === 'object' && found !== null && !Array.isArray(found);
  });
  return fc.oneof(
    fc.constant(valid),
    fc
      .tuple(fc.constantFrom(...where), fc.option(replacement, { freq: 5 }))
      .map(([path, next]) => mutate(valid, path, next ?? undefined)),
    fc
      .tuple(fc.constantFrom(...objects), fc.string({ maxLength: 6 }), replacement)
      .map(([path, key, extra]) => mutate(valid, [...path, key], extra)),
    fc.jsonValue({ maxDepth: 3 }),
  );
}

function agree(check: Check, schema: z.ZodType, arbitrary: fc.Arbitrary<unknown>, numRuns = 400): void {
  fc.assert(
    fc.property(arbitrary, (value) => {
      expect(check(value), JSON.stringify(value)).toBe(schema.safeParse(value).success);
    }),
    { numRuns },
  );
}

const endpoint = (operationId: string) =>
  endpointList.find((row) => row.operationId === operationId) as EndpointDefinition;

describe('compiled checks agree with zod', () => {
  it.each(Object.entries(VALID_RESPONSES))('the success body of %s', (operationId, valid) => {
    const { response } = endpoint(operationId);
    expect(response.safeParse(valid).success).toBe(true);
    agree(RESPONSE_CHECKS[operationId as never] as Check, response, candidates(valid));
  });

  it('error bodies, nested and flat', () => {
    agree(ERROR_BODY_CHECKS.nested, ApiErrorBody, candidates({ error: { detail: 'Not found.' } }));
    agree(ERROR_BODY_CHECKS.flat, FlatErrorBody, candidates({ error: 'Not found' }));
  });

  it.each(endpointList.filter((row) => row.query).map((row) => [row.operationId, row] as const))(
    'the query of %s, as a caller gives it',
    (operationId, row) => {
      const valid = { ordering: 'created_at', page: 2, page_size: 100 };
      agree(QUERY_CHECKS[operationId as never] as Check, row.query as z.ZodType, candidates(valid));
    },
  );

  it.each(endpointList.map((row) => [row.operationId, row] as const))(
    'the path parameters of %s',
    (operationId, row) => {
      const valid =
        row.auth === 'apiKey'
          ? row.kind === 'list'
            ? {}
            : { id: samples.ids.user }
          : { webhook_token: samples.ids.call };
      agree(PATH_CHECKS[operationId as never] as Check, row.pathParams, candidates(valid), 200);
    },
  );

  it.each([
    [
      'addAudienceMember',
      {
        first_name: 'Grace',
        phone: '(415) 555-0123',
        email: 'grace@example.com',
        custom_fields: { plan: 'gold' },
      },
    ],
    ['submitLead', { phone_number: '415-555-0123', customer_name: 'Ada', zip: '94103', custom_fields: {} }],
  ])('the body of %s, as a caller gives it', (operationId, valid) => {
    agree(
      BODY_CHECKS[operationId as never] as Check,
      endpoint(operationId).body as z.ZodType,
      candidates(valid),
    );
  });

  it('every operation has the checks its row calls for', () => {
    for (const row of endpointList) {
      expect(RESPONSE_CHECKS[row.operationId as never], row.operationId).toBeTypeOf('function');
      expect(PATH_CHECKS[row.operationId as never], row.operationId).toBeTypeOf('function');
      expect(QUERY_CHECKS[row.operationId as never] !== undefined, row.operationId).toBe(
        row.query !== undefined,
      );
      expect(BODY_CHECKS[row.operationId as never] !== undefined, row.operationId).toBe(
        row.body !== undefined,
      );
    }
  });
});
