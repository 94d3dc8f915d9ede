import { closestName } from '@company-data/contract/runtime';
import type { MockServerOptions } from './options.js';

/**
 * Every option of {@link MockServerOptions}, one each: what a misspelt option is checked against. The
 * `satisfies` keeps it in step with the interface, so a new option cannot be missed here.
 */
const SERVER_OPTIONS = {
  seed: true,
  sizes: true,
  fixture: true,
  now: true,
  clock: true,
  quota: true,
  throttle: true,
  latency: true,
  faultRate: true,
  activity: true,
  onRequest: true,
  origin: true,
  maxBodyBytes: true,
  journalLimit: true,
  adminToken: true,
  onUnmatchedRequest: true,
  maxSessions: true,
  sessionIdleMs: true,
  state: true,
} as const satisfies Record<keyof MockServerOptions, true>;

/** The options of the server itself, which its sessions take from it rather than have their own. */
export const SERVER_ONLY_OPTIONS = [
  'origin',
  'maxBodyBytes',
  'onRequest',
  'onUnmatchedRequest',
  'maxSessions',
  'sessionIdleMs',
] as const satisfies readonly (keyof MockServerOptions)[];

/** What only `startMockServer` takes: where it listens. */
const LISTENER_OPTIONS = ['port', 'host'] as const;

/** The calls that take options, with the names each knows. */
const KNOWN = {
  'createMockServer()': Object.keys(SERVER_OPTIONS),
  'startMockServer()': [...Object.keys(SERVER_OPTIONS), ...LISTENER_OPTIONS],
  'sessions.create()': [
    ...Object.keys(SERVER_OPTIONS).filter(
      (name) => !(SERVER_ONLY_OPTIONS as readonly string[]).includes(name),
    ),
    'copy',
  ],
} as const;

/**
 * Refuses an option the call does not know, rather than leave it silently unused (a misspelt `seeed` would
 * otherwise give the default seed): says the closest known name, or why the call has none by that name.
 *
 * @param options - the options given (from plain JavaScript they may hold anything).
 * @param call - the call they were given to.
 * @throws RangeError naming the option and what to do instead.
 */
export function checkOptionNames(options: object, call: keyof typeof KNOWN): void {
  const known: readonly string[] = KNOWN[call];
  const unknown = Object.keys(options).find((name) => !known.includes(name));
  if (unknown === undefined) return;
  const problem = `${call} has no option \`${unknown}\``;
  if (call === 'createMockServer()' && (LISTENER_OPTIONS as readonly string[]).includes(unknown))
    throw new RangeError(
      `${problem}: it answers in process, with no listener; startMockServer({ ${unknown} }) serves over HTTP`,
    );
  if (call === 'sessions.create()' && (SERVER_ONLY_OPTIONS as readonly string[]).includes(unknown))
    throw new RangeError(
      `${problem}: it is the server's, and a session takes the server's (${SERVER_ONLY_OPTIONS.join(', ')})`,
    );
  const near = closestName(unknown, known);
  throw new RangeError(
    `${problem}${near === undefined ? '' : ` (did you mean \`${near}\`?)`}; its options are ${known.join(', ')}`,
  );
}
