import { beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockState, MockStateError } from '../../../src/index.js';

// A state that cannot be restored is refused before anything is made, by a MockStateError (a RangeError)
// naming where the problem is and what it is.

// biome-ignore lint/suspicious/noExplicitAny: tests break the state's JSON anywhere.
type Loose = any;

let good: MockState;

beforeAll(() => {
  const server = createMockServer({ clock: 'frozen', activity: { callsPerMinute: 10 } });
  server.records.update('users', server.records.create('users', {}).id, { is_active: false });
  server.clock.advance(5 * 60_000);
  good = JSON.parse(JSON.stringify(server.saveState())) as MockState;
});

/** A copy of the good state, changed by `change`. */
function broken(change: (state: Record<string, Loose>) => void): unknown {
  const state = JSON.parse(JSON.stringify(good)) as Record<string, Loose>;
  change(state);
  return state;
}

function refusal(state: unknown): MockStateError {
  try {
    createMockServer({ state });
  } catch (error) {
    expect(error).toBeInstanceOf(RangeError);
    expect(error).toBeInstanceOf(MockStateError);
    return error as MockStateError;
  }
  throw new Error('the state was restored');
}

describe('a state that cannot be restored', () => {
  it('restores when nothing is wrong', () => {
    expect(() => createMockServer({ state: good })).not.toThrow();
  });

  it('names another version', () => {
    const error = refusal(broken((state) => (state.version = 2)));
    expect(error.path).toBe('version');
    expect(error.message).toBe('Invalid mock state at version: this mock reads state version 1, got 2');
    expect(refusal(broken((state) => delete state.version)).message).toMatch(/version 1, got none/);
  });

  it('names a missing field', () => {
    const error = refusal(broken((state) => delete state.clock.nowMs));
    expect(error.path).toBe('clock.nowMs');
    expect(error.message).toBe('Invalid mock state at clock.nowMs: missing (expected number)');
  });

  it('names a missing field inside a part that may be false', () => {
    const error = refusal(broken((state) => delete state.activity.reachedMs));
    expect(error.path).toBe('activity.reachedMs');
    expect(error.message).toMatch(/missing \(expected number\)/);
  });

  it('names a field of the wrong type deep inside', () => {
    const error = refusal(broken((state) => (state.apiKeys[2].hash = 'not a hash')));
    expect(error.path).toBe('apiKeys[2].hash');
    expect(error.message).toMatch(/SHA-256/);
  });

  it('names an unknown field', () => {
    const error = refusal(broken((state) => (state.clock.frozenn = true)));
    expect(error.path).toBe('clock');
    expect(error.message).toMatch(/frozenn/);
  });

  it('names a changed record the options do not generate', () => {
    const error = refusal(
      broken((state) => {
        state.companies[0].users.changed = { '00000000-0000-4000-8000-000000000000': { is_active: false } };
      }),
    );
    expect(error.path).toBe('companies[0].users.changed.00000000-0000-4000-8000-000000000000');
    expect(error.message).toMatch(/no record with id/);
  });

  it('names a changed field the contract refuses', () => {
    const error = refusal(
      broken((state) => (state.companies[0].users.created[0].fields = { is_active: 'yes' })),
    );
    expect(error.path).toBe('companies[0].users.created[0]');
    expect(error.message).toMatch(/user\.is_active: Invalid input: expected boolean/);
  });

  it('names a key of an unknown company', () => {
    const error = refusal(broken((state) => (state.apiKeys[0].company = 'nope')));
    expect(error.path).toBe('apiKeys[0].company');
  });

  it('says what a state is when it is none', () => {
    for (const input of ['a string', 42, null, []]) {
      const error = refusal(input);
      expect(error.path).toBe('');
      expect(error.message).toMatch(/expected an object, as saveState\(\) returns it/);
    }
  });

  it('refuses options the state holds given beside it', () => {
    expect(() => createMockServer({ state: good, seed: 2, clock: 'running' })).toThrow(
      /^seed, clock cannot be given with state, which holds them/,
    );
    // The transport options may be given.
    expect(createMockServer({ state: good, adminToken: 'secret' }).adminToken).toBe('secret');
  });
});
