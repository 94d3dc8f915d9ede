import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  apiRootOf,
  baseUrlOf,
  compilePath,
  decodeSegment,
  endpoints,
  fillPath,
  parseThrottleDetail,
  pathParamNames,
  rootPath,
  throttleDetail,
} from '../src/index.js';

describe('path templates', () => {
  it('names, fills and matches placeholders', () => {
    expect(pathParamNames('/calls/{id}/transcript/')).toEqual(['id']);
    expect(fillPath('/calls/{id}/transcript/', { id: 'a b' })).toBe('/calls/a%20b/transcript/');
    expect(compilePath('/calls/{id}/transcript/')('/calls/a%20b/transcript/')).toEqual({ id: 'a b' });
    expect(compilePath('/calls/{id}/transcript/')('/calls/a/transcript')).toBeUndefined();
    expect(compilePath('/calls/{id}/')('/calls/%E0%A4%A/')).toEqual({ id: '%E0%A4%A' });
  });

  it('fill then match gives the value back', () => {
    const match = compilePath('/users/{id}/');
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (id) => {
        expect(match(fillPath('/users/{id}/', { id }))).toEqual({ id });
      }),
    );
  });

  it('fills every placeholder of a template, the same on every call', () => {
    for (let call = 0; call < 2; call++) {
      expect(fillPath('/{a}{b}/x/{a}/{c}', { a: '1/2', b: 'é', c: '' })).toBe('/1%2F2%C3%A9/x/1%2F2/');
      expect(fillPath('/teams/', {})).toBe('/teams/');
    }
  });

  it('refuses to fill a template with a missing value', () => {
    expect(() => fillPath('/users/{id}/', {})).toThrow(/Missing path parameter "id"/);
  });

  it('places data endpoints under /v1 and the lead webhook at the root', () => {
    expect(rootPath(endpoints.listUsers)).toBe('/v1/users/');
    expect(rootPath(endpoints.addAudienceMember)).toBe('/v1/outbound-campaigns/webhook/{webhook_token}/');
    expect(rootPath(endpoints.submitLead)).toBe('/messaging-agent/webhook/{webhook_token}/');
  });

  it('turns an API root into a base URL and back', () => {
    expect(baseUrlOf('https://api.example.com')).toBe('https://api.example.com/v1');
    expect(apiRootOf('https://api.example.com/v1')).toBe('https://api.example.com');
    expect(apiRootOf('https://api.example.com/api')).toBe('https://api.example.com/api');
    fc.assert(
      fc.property(fc.webUrl(), (root) => {
        expect(apiRootOf(baseUrlOf(root))).toBe(root);
      }),
    );
  });

  it('decodes path segments, leaving a malformed escape as it is', () => {
    expect(decodeSegment('a%20b')).toBe('a b');
    expect(decodeSegment('%E0%A4%A')).toBe('%E0%A4%A');
  });
});

describe('throttle detail', () => {
  it('formats the documented text', () => {
    expect(throttleDetail(60)).toBe('Request was throttled. Expected available in 60 seconds.');
    expect(throttleDetail(1)).toBe('Request was throttled. Expected available in 1 second.');
    expect(throttleDetail(0.2)).toBe('Request was throttled. Expected available in 1 second.');
  });

  it('round-trips any wait', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000 }), (seconds) => {
        expect(parseThrottleDetail(throttleDetail(seconds))).toBe(seconds);
      }),
    );
  });

  it('reads fractional waits and finds nothing in other texts', () => {
    expect(parseThrottleDetail('Request was throttled. Expected available in 2.5 seconds.')).toBe(2.5);
    expect(parseThrottleDetail('Not found.')).toBeUndefined();
  });
});
