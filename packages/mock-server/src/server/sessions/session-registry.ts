import type { RoutingSecrets } from '../../data/random/secret-draws.js';
import { idKey } from '../../data/store/id-key.js';
import { hashKey } from '../../data/store/keys.js';
import { bearerToken } from '../../serve/http/bearer.js';
import { ADMIN_PREFIX } from '../../serve/http/reserved-paths.js';
import { errorJson } from '../../serve/http/responses.js';
import type { MockRequest, MockResponse } from '../../serve/http/types.js';
import { DEFAULT_SESSION_ID, idleText, type SessionInfo, SessionRefusedError } from './session-rules.js';

/** What the registry needs of a world: a session, or the server's default one. */
export interface SessionWorld {
  readonly id: string;
  readonly adminToken: string;
  /** Whether one of its keys has this hash (of `hashKey`). */
  ownsKeyHash(hash: string): boolean;
  /** What routes to it: the hashes of every key it holds now (revoked and expired ones too), its webhook tokens. */
  claims(): RoutingSecrets;
  /** Whether one of its audiences or lead sources has this webhook token. */
  ownsToken(token: string): boolean;
  /** Lets go of what it holds (its dispatcher): it has ended. */
  ended(): void;
}

/** What a world holds that routes requests to it, and so no other world may hold: its secrets, its admin token. */
export interface WorldClaims extends RoutingSecrets {
  readonly adminToken?: string | undefined;
}

/** How a session ended, in words (`Session s1 was ended at …`), and the keys and webhook tokens it held then. */
interface Ending extends RoutingSecrets {
  readonly text: string;
}

interface Entry<World> {
  readonly world: World;
  readonly createdAtMs: number;
  lastUsedMs: number;
}

/** The limits and the parts of a request the registry cannot read alone. */
export interface RegistryOptions {
  readonly maxSessions: number;
  readonly idleMs: number | false;
  /** The webhook token in a request's path, if it is a webhook's. */
  readonly webhookToken: (request: MockRequest) => string | undefined;
  /** Wall time in ms (Date.now): idleness is real time, whatever the mock's clock does. */
  readonly wallNow?: () => number;
}

/** At most this long between two looks for idle sessions. */
const LONGEST_SWEEP_MS = 60_000;
/**
 * How many ended sessions' admin tokens and keys are remembered, to say why they reach nothing (the oldest
 * forgotten).
 */
const REMEMBERED_ENDINGS = 1000;

/**
 * The sessions of one server and the routes to them: an API request reaches the session holding its key, a
 * webhook the one holding its token, an admin request the one whose admin token it bears. Whatever none
 * holds goes to the default session, as every request did before sessions existed. The routes are a cache,
 * checked on each use against the world itself, so a key created, revoked or reloaded needs no bookkeeping.
 */
export class SessionRegistry<World extends SessionWorld> {
  readonly #root: Entry<World>;
  readonly #sessions = new Map<string, Entry<World>>();
  readonly #byAdminToken = new Map<string, Entry<World>>();
  readonly #keyRoutes = new Map<string, Entry<World>>();
  readonly #tokenRoutes = new Map<string, Entry<World>>();
  /** Ended sessions' admin tokens, and how each ended. */
  readonly #endings = new Map<string, Ending>();
  /** Ended sessions' key hashes, and how the session that held each ended. */
  readonly #endedKeys = new Map<string, Ending>();
  /** Ended sessions' webhook tokens, and how the session that held each ended. */
  readonly #endedTokens = new Map<string, Ending>();
  readonly #options: RegistryOptions;
  readonly #wallNow: () => number;
  #made = 0;
  #sweeper: ReturnType<typeof setInterval> | undefined;

  /**
   * @param root - the server's default session.
   * @param options - the limits, and how to read a webhook's token.
   */
  constructor(root: World, options: RegistryOptions) {
    this.#options = options;
    this.#wallNow = options.wallNow ?? Date.now;
    const now = this.#wallNow();
    this.#root = { world: root, createdAtMs: now, lastUsedMs: now };
  }

  /** How many sessions are open besides the default one. */
  get size(): number {
    return this.#sessions.size;
  }

  /**
   * The number of the next session (its salt and its id's), once there is room for it.
   *
   * @throws SessionRefusedError (409) when `maxSessions` are open.
   */
  reserve(): number {
    this.sweep();
    const { maxSessions, idleMs } = this.#options;
    if (this.#sessions.size >= maxSessions) {
      const idle = idleMs === false ? '' : `, or wait for one to go ${idleText(idleMs)} unused`;
      throw new SessionRefusedError(
        409,
        `The mock holds ${maxSessions} sessions, its limit: end one (DELETE /__admin/sessions/{id}, or session.close() in code)${idle}; the limit is set by --max-sessions (maxSessions in code).`,
      );
    }
    return ++this.#made;
  }

  /**
   * Opens a session.
   *
   * @throws SessionRefusedError (409) when one of its keys, tokens or its admin token is another session's.
   */
  add(world: World, claims: WorldClaims): void {
    this.assertFree(world, claims);
    const now = this.#wallNow();
    const entry: Entry<World> = { world, createdAtMs: now, lastUsedMs: now };
    this.#sessions.set(world.id, entry);
    this.#byAdminToken.set(world.adminToken, entry);
    this.#startSweeping();
  }

  /**
   * Refuses what another open world already holds.
   *
   * @param world - the world that wants to hold them.
   * @param claims - key hashes, webhook tokens and an admin token.
   * @throws SessionRefusedError (409) naming the session that holds one.
   */
  assertFree(world: World, { keyHashes, tokens, adminToken }: WorldClaims): void {
    for (const other of this.#open()) {
      if (other.world === world) continue;
      const owner =
        other.world.id === DEFAULT_SESSION_ID ? 'the default session' : `session ${other.world.id}`;
      if (keyHashes.some((hash) => other.world.ownsKeyHash(hash)))
        throw new SessionRefusedError(
          409,
          `An API key given is already a key of ${owner}: a key routes each request to its session, so no two sessions share one. Give this session keys of its own, or leave the values out and use the ones the mock makes (keys.valid, …).`,
        );
      if (tokens.some((token) => other.world.ownsToken(token)))
        throw new SessionRefusedError(
          409,
          `A webhook token given is already a token of ${owner}: a token routes each webhook to its session, so no two sessions share one. Give this session's audiences and lead sources tokens of their own.`,
        );
      if (adminToken !== undefined && other.world.adminToken === adminToken)
        throw new SessionRefusedError(
          409,
          `The admin token given is already ${owner}'s: leave it out for a random one.`,
        );
    }
  }

  /** The session with this id (`default`: the server's own), if open. */
  get(id: string): World | undefined {
    if (id === DEFAULT_SESSION_ID) return this.#root.world;
    return this.#sessions.get(id)?.world;
  }

  /** The default session, then the open sessions, oldest first. */
  list(): readonly SessionInfo[] {
    this.sweep();
    return [...this.#open()].map((entry) => this.#info(entry));
  }

  /** One session as listed, if open. */
  info(id: string): SessionInfo | undefined {
    const entry = id === DEFAULT_SESSION_ID ? this.#root : this.#sessions.get(id);
    return entry && this.#info(entry);
  }

  /**
   * Ends a session: its keys, tokens and admin token reach nothing any more.
   *
   * @returns whether it was open.
   * @throws SessionRefusedError (409) for the default session, which ends with the server.
   */
  end(id: string, why = 'was ended'): boolean {
    if (id === DEFAULT_SESSION_ID)
      throw new SessionRefusedError(
        409,
        'The default session ends with the server: close the server, or reset the session (POST /__admin/reset).',
      );
    const entry = this.#sessions.get(id);
    if (entry === undefined) return false;
    this.#sessions.delete(id);
    this.#byAdminToken.delete(entry.world.adminToken);
    const ending: Ending = {
      text: `Session ${id} ${why} at ${new Date(this.#wallNow()).toISOString()}`,
      ...entry.world.claims(),
    };
    this.#endings.set(entry.world.adminToken, ending);
    for (const hash of ending.keyHashes) this.#endedKeys.set(hash, ending);
    for (const token of ending.tokens) this.#endedTokens.set(token, ending);
    if (this.#endings.size > REMEMBERED_ENDINGS) this.#forgetOldestEnding();
    forget(this.#keyRoutes, entry);
    forget(this.#tokenRoutes, entry);
    if (this.#sessions.size === 0) this.#stopSweeping();
    entry.world.ended();
    return true;
  }

  /** Ends every session (the server closes). */
  close(): void {
    for (const id of [...this.#sessions.keys()]) this.end(id);
    this.#stopSweeping();
  }

  /** Ends the sessions unused for the idle time. */
  sweep(): void {
    const { idleMs } = this.#options;
    if (idleMs === false) return;
    const now = this.#wallNow();
    for (const [id, entry] of this.#sessions)
      if (now - entry.lastUsedMs >= idleMs) this.end(id, `ended after ${idleText(idleMs)} unused`);
  }

  /**
   * The world a request goes to, marked used.
   *
   * @param request - the request, its headers as received.
   */
  route(request: MockRequest): World {
    const token = bearerToken(request.headers.authorization);
    let entry: Entry<World> | undefined;
    if (request.path.startsWith(ADMIN_PREFIX)) {
      entry = token === undefined ? undefined : this.#byAdminToken.get(token);
    } else {
      // A webhook's token decides, whatever key it may bear too.
      const webhook = this.#options.webhookToken(request);
      if (webhook !== undefined) entry = this.#byToken(idKey(webhook));
      else if (token !== undefined) entry = this.#byKey(hashKey(token));
    }
    if (entry === undefined) return this.#root.world;
    entry.lastUsedMs = this.#wallNow();
    return entry.world;
  }

  /**
   * The answer to an admin request bearing an ended session's admin token: 410, saying when and how it
   * ended, rather than the 401 of a token never seen.
   *
   * @param request - any request.
   * @returns the answer, or undefined for every other request.
   */
  endedAnswer(request: MockRequest): MockResponse | undefined {
    if (this.#endings.size === 0 || !request.path.startsWith(ADMIN_PREFIX)) return undefined;
    const token = bearerToken(request.headers.authorization);
    const ending = token === undefined ? undefined : this.#endings.get(token);
    if (ending === undefined) return undefined;
    return errorJson(
      410,
      `${ending.text}: its keys, tokens and admin token reach nothing now. Make a new one with POST ${ADMIN_PREFIX}sessions (the server's admin token).`,
    );
  }

  /**
   * What the 401 to an API request says when its key was one of an ended session's (and no open world holds
   * it now): when and how that session ended, rather than the API's words for a key never seen.
   *
   * @param hash - the key's hash (of `hashKey`).
   * @returns the detail, or undefined for a key no remembered session held.
   */
  endedKeyDetail(hash: string): string | undefined {
    const ending = this.#endedKeys.get(hash);
    if (ending === undefined) return undefined;
    return `${ending.text}: this API key was one of its keys and reaches nothing now. Make a new session with POST ${ADMIN_PREFIX}sessions (the server's admin token) and use its keys.`;
  }

  /**
   * Why a webhook request found no audience or lead source, when its token was one of an ended session's (and
   * no open world holds it now): when and how that session ended. Its answer stays the API's 404; these words
   * go to the journal's reason for it, where near misses are read.
   *
   * @param token - the webhook token in the request's path.
   * @returns the reason, or undefined for a token no remembered session held.
   */
  endedTokenDetail(token: string): string | undefined {
    const ending = this.#endedTokens.get(token);
    if (ending === undefined) return undefined;
    return `${ending.text}: this webhook token was one of its audiences' or lead sources' and reaches nothing now. Use a webhook token of an open session (GET ${ADMIN_PREFIX} with its admin token lists them).`;
  }

  /** Forgets the oldest ending remembered, and the keys and tokens whose latest ending it is. */
  #forgetOldestEnding(): void {
    const [adminToken, ending] = this.#endings.entries().next().value as [string, Ending];
    this.#endings.delete(adminToken);
    for (const hash of ending.keyHashes)
      if (this.#endedKeys.get(hash) === ending) this.#endedKeys.delete(hash);
    for (const token of ending.tokens)
      if (this.#endedTokens.get(token) === ending) this.#endedTokens.delete(token);
  }

  #byKey(hash: string): Entry<World> | undefined {
    return this.#find(this.#keyRoutes, hash, (world) => world.ownsKeyHash(hash));
  }

  #byToken(token: string): Entry<World> | undefined {
    return this.#find(this.#tokenRoutes, token, (world) => world.ownsToken(token));
  }

  /** The open world that owns something: the cached one when it still does, else found and cached. */
  #find(
    routes: Map<string, Entry<World>>,
    key: string,
    owns: (world: World) => boolean,
  ): Entry<World> | undefined {
    const cached = routes.get(key);
    if (cached !== undefined && owns(cached.world)) return cached;
    for (const entry of this.#open()) {
      if (owns(entry.world)) {
        routes.set(key, entry);
        return entry;
      }
    }
    routes.delete(key);
    return undefined;
  }

  *#open(): Iterable<Entry<World>> {
    yield this.#root;
    yield* this.#sessions.values();
  }

  #info(entry: Entry<World>): SessionInfo {
    const { idleMs } = this.#options;
    const isDefault = entry === this.#root;
    return {
      id: entry.world.id,
      createdAt: new Date(entry.createdAtMs).toISOString(),
      lastUsedAt: new Date(entry.lastUsedMs).toISOString(),
      idleEndsAt: isDefault || idleMs === false ? null : new Date(entry.lastUsedMs + idleMs).toISOString(),
    };
  }

  #startSweeping(): void {
    const { idleMs } = this.#options;
    if (idleMs === false || this.#sweeper !== undefined) return;
    this.#sweeper = setInterval(() => this.sweep(), Math.min(idleMs, LONGEST_SWEEP_MS));
    this.#sweeper.unref?.();
  }

  #stopSweeping(): void {
    clearInterval(this.#sweeper);
    this.#sweeper = undefined;
  }
}

/** Drops the cached routes to an ended session, so it is not kept alive by them. */
function forget<World>(routes: Map<string, Entry<World>>, entry: Entry<World>): void {
  for (const [key, routed] of routes) if (routed === entry) routes.delete(key);
}
