import type { FetchLike } from './options.js';

// What differs between the runtimes the SDK supports (Node, Bun, Deno), read from their globals only when
// a client is made: nothing here runs at module load, so importing the SDK touches no Node-only global.

/** The globals the SDK looks at; a parameter so that tests can stand in another runtime's. */
export interface RuntimeGlobals {
  readonly Bun?: { readonly version: string } | undefined;
  readonly Deno?: { readonly version: { readonly deno: string } } | undefined;
  readonly process?: { readonly versions?: { readonly node?: string }; readonly env?: object } | undefined;
  readonly fetch?: unknown;
}

const current = globalThis as RuntimeGlobals;

/**
 * The runtime and its version, for the `User-Agent` header: `node/20.20.2`, `bun/1.4.5`, `deno/2.9.5`.
 *
 * @param globals - the runtime's globals.
 * @returns the name and version, or `unknown` for a runtime the SDK does not know.
 */
export function runtimeName(globals: RuntimeGlobals = current): string {
  if (globals.Bun) return `bun/${globals.Bun.version}`;
  if (globals.Deno) return `deno/${globals.Deno.version.deno}`;
  const node = globals.process?.versions?.node;
  return node ? `node/${node}` : 'unknown';
}

/**
 * The `fetch` to send with when the caller chose no transport. On Bun and Deno it is the runtime's own:
 * their emulation of undici lacks parts the SDK's pool needs (Bun's `Agent` cannot be closed), while their
 * `fetch` is native. On Node it is `undefined`: the SDK's undici pool is faster.
 *
 * @param globals - the runtime's globals.
 * @returns the runtime's `fetch`, or `undefined` to use undici.
 */
export function runtimeFetch(globals: RuntimeGlobals = current): FetchLike | undefined {
  if (!globals.Bun && !globals.Deno) return undefined;
  return typeof globals.fetch === 'function' ? (globals.fetch as FetchLike) : undefined;
}

/**
 * An environment variable, where the runtime has an environment and lets the SDK read it: `undefined`
 * in a runtime without `process.env`, or under Deno without `--allow-env` (where reading throws).
 *
 * @param name - the variable.
 * @param globals - the runtime's globals.
 * @returns its value, or `undefined`.
 */
export function environmentVariable(name: string, globals: RuntimeGlobals = current): string | undefined {
  try {
    const value = (globals.process?.env as Record<string, unknown> | undefined)?.[name];
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}
