import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compileWireQuery, endpoints, INVALID_PARAM } from '../src/index.js';

describe('compileWireQuery', () => {
  const users = compileWireQuery(endpoints.listUsers.query);

  it('fills the defaults, for an empty query as for a partial one', () => {
    expect(users.parse('')).toEqual({
      ok: true,
      values: { ordering: '-created_at', page: 1, page_size: 25 },
    });
    expect(users.parse('page=3&is_active=false')).toEqual({
      ok: true,
      values: { ordering: '-created_at', page: 3, page_size: 25, is_active: false },
    });
  });

  it('reads integers within the schema bounds, whatever their number of digits', () => {
    expect(users.parse('page=1000000000')).toMatchObject({ ok: true, values: { page: 1_000_000_000 } });
    expect(users.parse('page=9007199254740991')).toMatchObject({ ok: true, values: { page: 2 ** 53 - 1 } });
    for (const raw of ['0', '-1', '1.5', '1e3', '', ' 1', '9007199254740992', '99999999999999999999'])
      expect(users.parse(`page=${encodeURIComponent(raw)}`)).toEqual({
        ok: false,
        detail: `Invalid page "${raw}": expected an integer from 1 to 9007199254740991.`,
      });
    expect(users.parse('page_size=101')).toEqual({
      ok: false,
      detail: 'Invalid page_size "101": expected an integer from 1 to 100.',
    });
  });

  it('reads booleans as the API does, and nothing that merely sits on Object.prototype', () => {
    const rule = users.params.get('is_active');
    expect(['true', 'True', '1', 'false', 'False', '0'].map((raw) => rule?.decode(raw))).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(rule?.decode('constructor')).toBe(INVALID_PARAM);
    expect(rule?.decode('TRUE')).toBe(INVALID_PARAM);
  });

  it('reads enumerations exactly', () => {
    const calls = compileWireQuery(endpoints.listCalls.query);
    expect(calls.parse('source=voice_agent')).toMatchObject({ ok: true, values: { source: 'voice_agent' } });
    expect(calls.parse('source=Voice_Agent')).toEqual({
      ok: false,
      detail: 'Invalid source "Voice_Agent": expected one of integration, voice_agent.',
    });
  });

  it('refuses unknown and repeated parameters', () => {
    expect(users.parse('souce=x')).toEqual({ ok: false, detail: 'Unknown query parameter "souce".' });
    expect(users.parse('page=1&page=2')).toEqual({
      ok: false,
      detail: 'Query parameter "page" was given more than once.',
    });
    expect(compileWireQuery(z.object({})).parse('expand=all')).toEqual({
      ok: false,
      detail: 'Unknown query parameter "expand".',
    });
  });

  it('reads free strings, and wants a rule for any other kind of parameter', () => {
    expect(compileWireQuery(z.object({ q: z.string().optional() })).parse('q=a+b')).toEqual({
      ok: true,
      values: { q: 'a b' },
    });
    expect(() => compileWireQuery(z.object({ since: z.date().optional() }))).toThrow(/has no wire rule/);
  });
});
