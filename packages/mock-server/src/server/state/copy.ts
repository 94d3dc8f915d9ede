import type { MockKeys, SeededStore } from '../../data/fake/seeded-store.js';
import type { RoutingSecrets } from '../../data/random/secret-draws.js';
import { hashKey, keyPrefix } from '../../data/store/keys.js';
import { MockStateError } from './error.js';
import type { MockState } from './schema.js';

/**
 * Which saved secrets a copy of a state gives values of its own, and which: the well-known keys (by the hash
 * of their saved value) take the new world's values, the webhook tokens of the audiences and lead sources its
 * data generates (found by id, which the seed draws apart from the secrets) the new world's tokens.
 */
export interface SecretRenewal {
  /** A saved well-known key's hash → the new world's value of that key. */
  readonly keys: ReadonlyMap<string, string>;
  /** A saved webhook token → the new world's token of the same audience or lead source. */
  readonly tokens: ReadonlyMap<string, string>;
}

/**
 * The secrets a copy of `state` would renew, read from a world just made from the state's options (before
 * the state is restored into it): its well-known keys, audiences and lead sources are what a new world of
 * the state's seed gets.
 *
 * @param state - a validated state.
 * @param fresh - the new world's store, as its options made it.
 */
export function secretRenewal(state: MockState, fresh: SeededStore): SecretRenewal {
  const keys = new Map<string, string>();
  for (const name of Object.keys(state.keys) as (keyof MockKeys)[]) {
    const value = fresh.keys[name];
    if (value !== state.keys[name]) keys.set(hashKey(state.keys[name]), value);
  }
  const tokens = new Map<string, string>();
  const renew = (
    saved: readonly { id: string; token: string }[],
    made: readonly { id: string; token: string }[],
  ) => {
    const byId = new Map(made.map((item) => [item.id, item.token]));
    for (const { id, token } of saved) {
      const own = byId.get(id);
      if (own !== undefined && own !== token) tokens.set(token, own);
    }
  };
  renew(state.audiences, fresh.store.audiences.values());
  renew(state.leadSources, fresh.store.leadSources.values());
  return { keys, tokens };
}

/**
 * What a copy of `state` keeps as saved: the keys and webhook tokens its world was given by value or made at
 * run time (a state holds a key only by its hash, so it cannot get a value of its own).
 *
 * @param state - a validated state.
 * @param renewal - what a copy renews.
 */
export function keptSecrets(state: MockState, renewal: SecretRenewal): RoutingSecrets {
  return {
    keyHashes: state.apiKeys.map((key) => key.hash).filter((hash) => !renewal.keys.has(hash)),
    tokens: [...state.audiences, ...state.leadSources]
      .map((item) => item.token)
      .filter((token) => !renewal.tokens.has(token)),
  };
}

/**
 * The state of a copy: `state` with the renewed keys and tokens in place of the saved ones, each key keeping
 * its saved record (id, company, name, permissions, expiry, revocation, creation time and own quota, so its
 * quota windows, kept by key id, still apply), each audience and lead source its members, leads and
 * conversations (which name a lead source by id).
 *
 * @param state - a validated state.
 * @param renewal - what to renew.
 * @throws MockStateError when a saved well-known key is no key of `apiKeys`.
 */
export function copyState(state: MockState, renewal: SecretRenewal): MockState {
  const keys = { ...state.keys };
  for (const name of Object.keys(keys) as (keyof MockKeys)[]) {
    const hash = hashKey(keys[name]);
    const value = renewal.keys.get(hash);
    if (value === undefined) continue;
    if (!state.apiKeys.some((key) => key.hash === hash))
      throw new MockStateError(
        `keys.${name}`,
        'no key of apiKeys has this value (its SHA-256), so a copy cannot give it a value of its own',
      );
    keys[name] = value;
  }
  const token = (saved: string) => renewal.tokens.get(saved) ?? saved;
  return {
    ...state,
    keys,
    tokens: {
      audience: token(state.tokens.audience),
      lead: token(state.tokens.lead),
      deletedLead: token(state.tokens.deletedLead),
    },
    apiKeys: state.apiKeys.map((key) => {
      const value = renewal.keys.get(key.hash);
      return value === undefined ? key : { ...key, hash: hashKey(value), prefix: keyPrefix(value) };
    }),
    audiences: state.audiences.map((audience) => ({ ...audience, token: token(audience.token) })),
    leadSources: state.leadSources.map((source) => ({ ...source, token: token(source.token) })),
  };
}
