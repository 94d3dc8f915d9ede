import type { CompanySizes } from '../../data/fake/generate-company.js';
import {
  DEFAULT_SIZES,
  generateStore,
  type MockKeys,
  type MockTokens,
  type SeededStore,
} from '../../data/fake/seeded-store.js';
import { buildFixtureStore } from '../../data/fixture/build.js';
import type { ParsedFixture } from '../../data/fixture/schema.js';
import { parseFixture } from '../../data/fixture/validate.js';
import type { RoutingSecrets } from '../../data/random/secret-draws.js';
import type { MockStore } from '../../data/store/mock-store.js';
import { DEFAULT_SEED, type MockServerOptions, type MockSizes, sizesProblem } from '../options.js';

/** Where a world's data comes from; reset rebuilds from it. */
export interface DataSource {
  readonly seed: number;
  readonly sizes: CompanySizes;
  readonly fixture?: ParsedFixture | undefined;
}

/**
 * The source of a world's data as its options say: the seed, the sizes (checked), the fixture (validated).
 *
 * @param options - the world's options.
 * @throws RangeError for invalid sizes; FixtureError for an invalid fixture.
 */
export function dataSourceOf(options: MockServerOptions): DataSource {
  return {
    seed: options.seed ?? DEFAULT_SEED,
    sizes: resolveSizes(options.sizes),
    fixture: options.fixture === undefined ? undefined : parseFixture(options.fixture),
  };
}

/**
 * Sizes checked and completed with the defaults (a user at least, when there are recordings or calls).
 *
 * @param sizes - the sizes given.
 * @throws RangeError naming the size that is not {@link SIZE_RULE}.
 */
export function resolveSizes(sizes: MockSizes = {}): CompanySizes {
  const problem = sizesProblem(sizes);
  if (problem !== undefined)
    throw new RangeError(problem.field ? `sizes.${problem.field} ${problem.text}` : `sizes: ${problem.text}`);
  const resolved = { ...DEFAULT_SIZES, ...sizes };
  if (resolved.users === 0 && (resolved.recordings > 0 || resolved.calls > 0)) resolved.users = 1;
  return resolved;
}

/**
 * A world's data: its source and the store built from it, with its well-known keys and tokens. `rebuild`
 * builds it again from the source (a reset); `replace` builds another source's completely before it takes
 * its place, so a failure leaves the data as it was.
 */
export class WorldData {
  #source: DataSource;
  #seeded: SeededStore;
  /** 0 for a server's own world; a session's number, which gives it keys and tokens of its own. */
  readonly #salt: number;
  /** The clock's initial time, at which generated data is drawn. */
  readonly #initialMs: () => number;

  /**
   * @param source - where the data comes from.
   * @param salt - the world's salt (0 for a server's own world).
   * @param initialMs - the clock's initial time, read at each build.
   */
  constructor(source: DataSource, salt: number, initialMs: () => number) {
    this.#source = source;
    this.#salt = salt;
    this.#initialMs = initialMs;
    this.#seeded = this.#build(source);
  }

  get source(): DataSource {
    return this.#source;
  }

  /** The store with its well-known keys and tokens (what saving and restoring a state read and write). */
  get seeded(): SeededStore {
    return this.#seeded;
  }

  get store(): MockStore {
    return this.#seeded.store;
  }

  get keys(): MockKeys {
    return this.#seeded.keys;
  }

  get tokens(): MockTokens {
    return this.#seeded.tokens;
  }

  /** Builds the data again from its source: every record change undone. */
  rebuild(): void {
    this.#seeded = this.#build(this.#source);
  }

  /**
   * Replaces the data with another source's, built completely first.
   *
   * @param source - the new source.
   * @param accept - told what the new data would route to this world; throws to refuse it (another session
   * holds one of its keys or tokens), leaving the data as it was.
   */
  replace(source: DataSource, accept?: (claims: RoutingSecrets) => void): void {
    const seeded = this.#build(source);
    accept?.(claimsOf(seeded));
    this.#seeded = seeded;
    this.#source = source;
  }

  /** What the data routes to this world: its keys' hashes and its webhook tokens. */
  claims(): RoutingSecrets {
    return claimsOf(this.#seeded);
  }

  /** Whether one of its keys has this hash (of `hashKey`). */
  ownsKeyHash(hash: string): boolean {
    return this.store.keys.hasHash(hash);
  }

  /** Whether one of its audiences or lead sources has this webhook token. */
  ownsToken(token: string): boolean {
    return this.store.audiences.get(token) !== undefined || this.store.leadSources.get(token) !== undefined;
  }

  #build(source: DataSource): SeededStore {
    const nowMs = this.#initialMs();
    return source.fixture
      ? buildFixtureStore(source.fixture, source.seed, nowMs, this.#salt)
      : generateStore(source.seed, source.sizes, nowMs, this.#salt);
  }
}

function claimsOf({ store }: SeededStore): RoutingSecrets {
  return {
    keyHashes: store.keys.all().map((key) => key.hash),
    tokens: [...store.audiences.values(), ...store.leadSources.values()].map((item) => item.token),
  };
}
