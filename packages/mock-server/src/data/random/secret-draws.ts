import { hashInts, Prng } from './prng.js';

/**
 * Where a world draws its API key values and webhook tokens: what routes a request to it when one server
 * holds many sessions, so no two worlds may share one.
 */
export interface SecretDraws {
  uuid(): string;
  base62(length: number): string;
}

/**
 * The secrets a world holds that route requests to it, and so no other world of a server may hold: its API
 * keys (by the SHA-256 of their values) and its webhook tokens.
 */
export interface RoutingSecrets {
  readonly keyHashes: readonly string[];
  readonly tokens: readonly string[];
}

/**
 * The tags of a session's own streams, one per use: the secrets its data generates (well-known keys and
 * tokens) and the key values it makes at run time (`createKey()`) are drawn apart, so neither repeats the other.
 */
const STREAM_TAGS = { generated: 0x5ec7e7, runTime: 0x5ec7e8 } as const;

/** Which of a session's own streams a draw is from (see {@link secretDraws}). */
export type SecretStream = keyof typeof STREAM_TAGS;

/**
 * The secrets of a world with this salt. Salt 0 (the server's default world) draws them from its ids'
 * stream, as it always has. A session (salt 1, 2, …) draws each from a stream of its own, the ids' stream
 * still advanced as if it had drawn it: its ids, and so its records, are the default world's of the same
 * seed, while its keys and tokens are its own.
 *
 * @param ids - the stream the world draws its ids from (read at each draw: a restored state replaces it).
 * @param seed - the world's seed.
 * @param salt - 0 for the default world, the session's number otherwise.
 * @param stream - a session's stream: of its generated data's secrets, or of the key values it makes at run time.
 */
export function secretDraws(
  ids: () => Prng,
  seed: number,
  salt: number,
  stream: SecretStream = 'generated',
): SecretDraws {
  if (salt === 0) return { uuid: () => ids().uuid(), base62: (length) => ids().base62(length) };
  const own = new Prng(hashInts(seed, salt, STREAM_TAGS[stream]));
  return {
    uuid: () => {
      ids().uuid();
      return own.uuid();
    },
    base62: (length) => {
      ids().base62(length);
      return own.base62(length);
    },
  };
}
