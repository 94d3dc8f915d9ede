import type { z } from 'zod';
import { formatPath } from '../../data/fixture/error.js';
import { MockStateError } from './error.js';
import { MOCK_STATE_VERSION, type MockState, MockStateSchema } from './schema.js';

/**
 * Validates a state: an object of this version, every field present and of its type. The state is copied
 * first, so the world restored from it shares nothing with the caller's object.
 *
 * @param input - a state from `saveState()`, or its JSON parsed.
 * @returns the state.
 * @throws MockStateError naming the first bad field, e.g. `clock.nowMs: missing (expected number)`.
 */
export function parseState(input: unknown): MockState {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    throw new MockStateError('', 'expected an object, as saveState() returns it (or its JSON, parsed)');
  const { version } = input as { version?: unknown };
  if (version !== MOCK_STATE_VERSION)
    throw new MockStateError(
      'version',
      `this mock reads state version ${MOCK_STATE_VERSION}, got ${version === undefined ? 'none' : JSON.stringify(version)}`,
    );
  let copy: unknown;
  try {
    copy = structuredClone(input);
  } catch (error) {
    throw new MockStateError(
      '',
      'expected JSON data (a function, a symbol or a class instance cannot be restored)',
      {
        cause: error,
      },
    );
  }
  const result = MockStateSchema.safeParse(copy);
  if (result.success) return result.data;
  const { path, message } = deepest(result.error.issues[0]);
  throw new MockStateError(formatPath(path), message);
}

type Issue = z.core.$ZodIssue;

/**
 * The issue to report: within a union (`false` or an object), the one of the alternative that went
 * furthest, so a missing field inside is named rather than "Invalid input".
 */
function deepest(issue: Issue | undefined): { path: PropertyKey[]; message: string } {
  if (issue === undefined) return { path: [], message: 'invalid' };
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    let best: { path: PropertyKey[]; message: string } | undefined;
    for (const alternative of issue.errors) {
      const found = deepest(alternative[0]);
      if (best === undefined || found.path.length > best.path.length) best = found;
    }
    if (best !== undefined && best.path.length > 0)
      return { path: [...issue.path, ...best.path], message: best.message };
  }
  return { path: [...issue.path], message: wording(issue.message) };
}

/** Zod's words, with a missing field said so. */
function wording(message: string): string {
  const missing = /^Invalid input: expected (.+), received undefined$/.exec(message);
  return missing ? `missing (expected ${missing[1]})` : message;
}
