import type { MockClock } from '../../data/clock.js';
import { warnDeprecated } from '../../data/deprecation.js';
import type { MockKeys } from '../../data/fake/seeded-store.js';
import type { KeyOptions, MockStore } from '../../data/store/mock-store.js';
import {
  checkQuota,
  DEFAULT_QUOTA,
  type Quota,
  type QuotaInput,
  type QuotaReadout,
  type QuotaWindowInfo,
  Throttle,
} from '../../data/store/quota.js';
import { type ApiKeyInfo, listApiKeys } from '../../inspect/keys-and-webhooks.js';
import type { KeyDirectory } from '../../inspect/verify/pattern.js';
import type { MockServerOptions } from '../options.js';

/** What the key controls act on: the world's store and clock. */
export interface KeyWorld {
  /** The world's store now (replaced by a reset or a reload). */
  readonly store: () => MockStore;
  readonly clock: MockClock;
}

/**
 * A world's API keys and quotas as a test changes them: keys created, revoked and expired; the quota of keys
 * without their own, and a key's own. The quota's windows live in {@link KeyControls.throttle}, which the
 * engine takes from on every request.
 */
export class KeyControls {
  /** The quota in force and its open windows. */
  readonly throttle: Throttle;
  readonly #world: KeyWorld;
  readonly #options: MockServerOptions;

  /**
   * @param world - the store, the clock and the check against other sessions.
   * @param options - the world's `quota` (or deprecated `throttle`).
   * @throws RangeError for an invalid quota.
   */
  constructor(world: KeyWorld, options: MockServerOptions) {
    this.#world = world;
    this.#options = options;
    this.throttle = new Throttle(defaultQuota(options));
  }

  /** Back to the options' quota, every window closed. */
  reset(): void {
    this.throttle.configure(defaultQuota(this.#options));
  }

  /** Creates a key (a value given is checked against the other sessions by the world first). */
  createKey(options: KeyOptions = {}): string {
    return this.#world.store().createKey(options, this.#world.clock.nowMs()).value;
  }

  revokeKey(value: string): void {
    this.#world.store().keys.require(value).revoked = true;
  }

  expireKey(value: string): void {
    this.#world.store().keys.require(value).expiresAt = this.#world.clock.nowMs();
  }

  setQuota(quota: QuotaInput | false): void {
    this.throttle.configure(checkQuota(quota, 'setQuota'));
  }

  setKeyQuota(value: string, quota: QuotaInput | false | null): void {
    const key = this.#world.store().keys.require(value);
    key.quota = quota === null ? undefined : checkQuota(quota, 'setKeyQuota');
    this.throttle.forget(key.id);
  }

  apiKeys(): readonly ApiKeyInfo[] {
    return listApiKeys(this.#world.store());
  }

  /** The default quota, and the windows open now on the clock (a window past its end counts nothing). */
  quotas(): QuotaReadout {
    const nowMs = this.#world.clock.nowMs();
    const keys = new Map(
      this.#world
        .store()
        .keys.all()
        .map((key) => [key.id, key]),
    );
    const fallback = this.throttle.defaultQuota;
    const windows: QuotaWindowInfo[] = [];
    for (const { key: keyId, startMs, count } of this.throttle.windows()) {
      const key = keys.get(keyId);
      const quota = key?.quota ?? fallback;
      if (key === undefined || quota === false) continue;
      const closesMs = startMs + quota.perSeconds * 1000;
      if (nowMs < startMs || nowMs >= closesMs) continue;
      windows.push({
        keyId,
        keyName: key.name,
        quota,
        requests: count,
        openedAt: new Date(startMs).toISOString(),
        closesAt: new Date(closesMs).toISOString(),
      });
    }
    return { default: fallback, windows };
  }

  /**
   * The keys a pattern's `key` may name: a well-known key's name, a key's value, or a key's own name.
   *
   * @param wellKnown - the world's well-known keys.
   */
  directory(wellKnown: MockKeys): KeyDirectory {
    const { keys } = this.#world.store();
    const names = keys.all().map((key) => key.name);
    return {
      names: [...Object.keys(wellKnown), ...names],
      nameOf: (key) => {
        const value = Object.hasOwn(wellKnown, key) ? wellKnown[key as keyof MockKeys] : key;
        return keys.find(value)?.name ?? (names.includes(key) ? key : undefined);
      },
    };
  }
}

/** The options' quota of keys without their own, from `quota` or (deprecated) `throttle`. */
function defaultQuota(options: MockServerOptions): Quota | false {
  if (options.throttle !== undefined) warnDeprecated('the option throttle', 'quota');
  return checkQuota(options.quota ?? options.throttle ?? DEFAULT_QUOTA, 'the option quota');
}
