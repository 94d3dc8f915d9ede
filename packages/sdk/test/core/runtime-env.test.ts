import { describe, expect, it } from 'vitest';
import { environmentVariable, runtimeFetch, runtimeName } from '../../src/core/runtime-env.js';

// Bun and Deno are run for real by check:packages (the smoke script); these tests pin the choices made
// from each runtime's globals, which Node alone cannot show.

const fakeFetch = async () => {
  throw new Error('not called');
};
const node = {
  process: { versions: { node: '20.20.2' }, env: { COMPANY_DATA_LOG: 'debug' } },
  fetch: fakeFetch,
};
// Bun and Deno define `process` too, with a Node version they emulate: their own global must win.
const bun = { ...node, Bun: { version: '1.4.5' } };
const deno = { ...node, Deno: { version: { deno: '2.9.5' } } };

describe('runtime environment', () => {
  it('names the runtime in the user agent, not the Node version it emulates', () => {
    expect(runtimeName(node)).toBe('node/20.20.2');
    expect(runtimeName(bun)).toBe('bun/1.4.5');
    expect(runtimeName(deno)).toBe('deno/2.9.5');
    expect(runtimeName({})).toBe('unknown');
  });

  it("sends through the runtime's fetch on Bun and Deno, and through undici on Node", () => {
    expect(runtimeFetch(node)).toBeUndefined();
    expect(runtimeFetch(bun)).toBe(fakeFetch);
    expect(runtimeFetch(deno)).toBe(fakeFetch);
    expect(runtimeFetch({ Bun: { version: '1' } })).toBeUndefined();
  });

  it('reads a variable where an environment exists, and nothing where it does not or may not be read', () => {
    expect(environmentVariable('COMPANY_DATA_LOG', node)).toBe('debug');
    expect(environmentVariable('COMPANY_DATA_LOG', {})).toBeUndefined();
    const denied = {
      process: {
        env: new Proxy(
          {},
          {
            get() {
              throw new Error(
                'Requires env access to "COMPANY_DATA_LOG", run again with the --allow-env flag',
              );
            },
          },
        ),
      },
    };
    expect(environmentVariable('COMPANY_DATA_LOG', denied)).toBeUndefined();
  });
});
