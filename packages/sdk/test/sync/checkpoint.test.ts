import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/index.js';
import {
  decodeCheckpoint,
  emptyState,
  encodeCheckpoint,
  fingerprintEntries,
  fingerprintEntry,
} from '../../src/sync/checkpoint.js';
import { canonicalJson, fingerprint } from '../../src/sync/record-fingerprint.js';

describe('fingerprint', () => {
  it('is the same whatever order the fields come in, and differs when a value does', () => {
    const call = { id: 'a', is_excused: false, user: { id: 'u', full_name: 'Ada' }, tags: [1, 2] };
    const reordered = { tags: [1, 2], user: { full_name: 'Ada', id: 'u' }, is_excused: false, id: 'a' };
    expect(canonicalJson(reordered)).toBe(canonicalJson(call));
    expect(fingerprint(reordered)).toBe(fingerprint(call));
    expect(fingerprint(call)).toMatch(/^[0-9a-f]{14}$/);
    expect(fingerprint({ ...call, is_excused: true })).not.toBe(fingerprint(call));
    expect(fingerprint({ ...call, tags: [2, 1] })).not.toBe(fingerprint(call));
    // Fixed values: a checkpoint written by one version of the SDK is read by the next, on any runtime.
    expect(fingerprint({ id: 'a' })).toBe('0a93e9435379c6');
    expect(fingerprint({ n: [1, { b: null }], id: 'a' })).toBe('1d7beebca3adc0');
  });
});

describe('sync checkpoint', () => {
  const method = 'client.calls.sync()';

  it('round-trips, and a person can read it', () => {
    const state = emptyState('calls', { source: 'voice_agent' });
    state.mark = { at: '2026-06-01T12:00:00.000Z', ids: ['x', 'y'] };
    const text = encodeCheckpoint(state);
    expect(text.startsWith('{"checkpoint":"company-data sync checkpoint","version":1,"list":"calls"')).toBe(
      true,
    );
    expect(decodeCheckpoint(text, 'calls', { source: 'voice_agent' }, method)).toEqual(state);
  });

  it('writes a run under way with its fingerprints last, from the map or from entries kept as they came', () => {
    const state = emptyState('users', { is_active: true });
    const mark = { at: '2026-06-01T12:00:00.000Z', ids: ['x'] };
    const fingerprints = { a: '0a93e9435379c6', b: '1d7beebca3adc0' };
    state.scan = { top: mark, cursor: mark, passed: 2, place: 2, count: 9, lookBack: 60_000, fingerprints };
    const whole = encodeCheckpoint(state);
    expect(whole.endsWith(',"fingerprints":{"a":"0a93e9435379c6","b":"1d7beebca3adc0"}}}')).toBe(true);
    const entries = `${fingerprintEntry('a', fingerprints.a)},${fingerprintEntry('b', fingerprints.b)}`;
    expect(entries).toBe(fingerprintEntries(fingerprints));
    expect(encodeCheckpoint(state, entries)).toBe(whole);
    expect(decodeCheckpoint(whole, 'users', { is_active: true }, method)).toEqual(state);
  });

  it.each([
    ['', /not a sync checkpoint \(""\)/],
    ['{}', /not a sync checkpoint/],
    ['[1]', /not a sync checkpoint/],
    ['x'.repeat(100), /not a sync checkpoint \("x{40}…"\)/],
  ])('refuses %j, saying what to pass instead', (text, message) => {
    let error: unknown;
    try {
      decodeCheckpoint(text, 'calls', {}, method);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).code).toBe('invalid_checkpoint');
    expect((error as ValidationError).message).toMatch(message);
    expect((error as ValidationError).message).toMatch(
      /or leave `checkpoint` out to start a full export of calls/,
    );
  });

  it('refuses damaged fields by name', () => {
    const good = JSON.parse(encodeCheckpoint(emptyState('calls', {})));
    const damaged = (patch: object) => () =>
      decodeCheckpoint(JSON.stringify({ ...good, ...patch }), 'calls', {}, method);
    expect(damaged({ filters: [] })).toThrow(/damaged \(`filters` is not an object of values\)/);
    expect(damaged({ mark: { at: 'yesterday', ids: [] } })).toThrow(/`mark` is not \{ at, ids \}/);
    expect(damaged({ window: { from: '2026-01-01T00:00:00Z', fingerprints: { a: 1 } } })).toThrow(/`window`/);
    const walk = {
      top: { at: '2026-01-01T00:00:00Z', ids: [] },
      cursor: { at: '2026-01-01T00:00:00Z', ids: [] },
      passed: 1,
      place: 1,
      count: 5,
      lookBack: 0,
      fingerprints: {},
    };
    // The control: a whole scan under way (the JSON field `walk`) is read back as written.
    expect(damaged({ walk })().scan).toEqual(walk);
    expect(damaged({ walk: { ...walk, place: -1 } })).toThrow(/`walk\.place` is not a whole number/);
    expect(damaged({ walk: { ...walk, top: null } })).toThrow(/`walk\.top` or `walk\.cursor`/);
  });
});
