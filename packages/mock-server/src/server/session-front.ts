import { hashKey } from '../data/store/keys.js';
import type { ClientAbort, EngineResult, RequestAnswerer } from '../serve/engine/engine.js';
import type { MockRequest } from '../serve/http/types.js';
import type { MockSession, MockSessions } from './mock-server.js';
import { checkOptionNames } from './option-names.js';
import type { MockServerOptions } from './options.js';
import { SessionRegistry, type SessionWorld, type WorldClaims } from './sessions/session-registry.js';
import {
  checkCopy,
  type MockSessionOptions,
  restoredRefusal,
  SessionRefusedError,
  sessionLimits,
} from './sessions/session-rules.js';

/** What a server's sessions need of a world: what routes to it, and the engine that answers it. */
export interface FrontWorld extends SessionWorld, MockSession {
  /** The engine answering this world's requests. */
  readonly engine: RequestAnswerer;
  /** What its data routes to it: its keys' hashes and its webhook tokens. */
  claims(): WorldClaims;
}

/** Where a new session stands among its server's: its id, its number (which salts its keys) and whether it is a copy. */
export interface SessionPlace {
  readonly id: string;
  readonly salt: number;
  /** A session restored from a state as a copy: its well-known keys and tokens its own. */
  readonly copy?: boolean | undefined;
}

/** A session just made, before its server's sessions take it in. */
export interface MadeSession<World> {
  readonly world: World;
  /**
   * For a session restored from a state: whether it is a copy, and the keys and tokens it holds as saved,
   * which a copy cannot give values of its own (what a 409 on them says).
   */
  readonly restored?: { readonly copy: boolean; readonly kept: WorldClaims } | undefined;
}

/** Makes a session's world from its options (the composition root: it knows what a world is made of). */
export type MakeSession<World> = (
  options: Omit<MockSessionOptions, 'copy'>,
  place: SessionPlace,
) => MadeSession<World>;

/** How a server's sessions are made and reached. */
export interface SessionFrontParts<World> {
  /** Makes a session's world. */
  readonly make: MakeSession<World>;
  /** The webhook token in a request's path, if it is a webhook's: what routes it to its session. */
  readonly webhookToken: (request: MockRequest) => string | undefined;
}

/**
 * A server's sessions, and the front its listener and dispatcher hand each request to: the request goes to
 * the engine of the session it belongs to (by the API key, the webhook token or the admin token it bears),
 * the server's own world's while it has no session. The registry is made with the first session: a server
 * without sessions routes nothing.
 */
export class SessionFront<World extends FrontWorld> implements RequestAnswerer {
  /** The server's own world: the default session. */
  readonly #root: World;
  readonly #options: MockServerOptions;
  readonly #parts: SessionFrontParts<World>;
  #registry: SessionRegistry<World> | undefined;
  #view: MockSessions | undefined;

  /**
   * @param root - the server's own world.
   * @param options - the server's options (its sessions' limits, as `sessionLimits` checked them).
   * @param parts - how a session is made, and how a webhook's token is read.
   */
  constructor(root: World, options: MockServerOptions, parts: SessionFrontParts<World>) {
    this.#root = root;
    this.#options = options;
    this.#parts = parts;
  }

  /** Answers a request with the engine of its session (an ended session's admin token gets a 410). */
  handle(request: MockRequest, abort?: ClientAbort): Promise<EngineResult> {
    const ended = this.#registry?.endedAnswer(request);
    if (ended !== undefined) return Promise.resolve({ response: ended });
    return this.#engineFor(request).handle(request, abort);
  }

  /**
   * When and how the ended session that held `key` ended, for the 401 to a key the server's own world does
   * not hold either; undefined for any other key.
   *
   * @param key - the API key a request bore.
   */
  endedKeyDetail(key: string): string | undefined {
    const registry = this.#registry;
    if (registry === undefined) return undefined;
    const hash = hashKey(key);
    return this.#root.ownsKeyHash(hash) ? undefined : registry.endedKeyDetail(hash);
  }

  /**
   * When and how the ended session that held a webhook `token` ended, for the journal's reason of a webhook
   * request the server's own world finds no audience or lead source for; undefined for any other token.
   *
   * @param token - the webhook token in a request's path.
   */
  endedTokenDetail(token: string): string | undefined {
    const registry = this.#registry;
    if (registry === undefined || this.#root.ownsToken(token)) return undefined;
    return registry.endedTokenDetail(token);
  }

  /** Journals a request its client abandoned, in its session's journal. */
  abandoned(request: MockRequest): void {
    this.#engineFor(request).abandoned(request);
  }

  /** The engine of the session a request belongs to (the server's own while it has no sessions). */
  #engineFor(request: MockRequest): RequestAnswerer {
    const registry = this.#registry;
    if (registry === undefined || registry.size === 0) return this.#root.engine;
    return registry.route(request).engine;
  }

  /** The sessions as the server's admin token reaches them. */
  get sessions(): MockSessions {
    this.#view ??= this.#sessionsView();
    return this.#view;
  }

  /**
   * The sessions as a session's admin token reaches them: itself only. Creating or listing sessions takes the
   * server's admin token.
   *
   * @param session - the session.
   */
  scoped(session: MockSession): MockSessions {
    const sessions = this.sessions;
    const refuse = (): never => {
      throw new SessionRefusedError(
        403,
        `This is session ${session.id}'s admin token, which reaches only its own session: create, list and end other sessions with the server's admin token (company-data-mock prints it at start; mock.adminToken in code).`,
      );
    };
    const own = (id: string) => (id === session.id ? id : refuse());
    return {
      create: refuse,
      list: refuse,
      get: (id) => sessions.get(own(id)),
      info: (id) => sessions.info(own(id)),
      end: (id) => sessions.end(own(id)),
      get size() {
        return refuse();
      },
    };
  }

  /**
   * Makes sure no other open world holds what would route to `world` (a fixture's keys and tokens, a key
   * given by value).
   *
   * @throws SessionRefusedError (409) naming the session that holds one.
   */
  assertFree(world: World, claims: WorldClaims): void {
    this.#registry?.assertFree(world, claims);
  }

  /** Ends every session (the server closes). */
  close(): void {
    this.#registry?.close();
  }

  #sessionsView(): MockSessions {
    const registry = () =>
      (this.#registry ??= new SessionRegistry<World>(this.#root, {
        ...sessionLimits(this.#options),
        webhookToken: this.#parts.webhookToken,
      }));
    return {
      create: (options) => this.#create(registry(), options),
      get: (id) => registry().get(id),
      list: () => registry().list(),
      info: (id) => registry().info(id),
      end: (id) => registry().end(id),
      get size() {
        return registry().size;
      },
    };
  }

  #create(registry: SessionRegistry<World>, given: MockSessionOptions = {}): MockSession {
    checkOptionNames(given, 'sessions.create()');
    checkCopy(given);
    const { copy, ...options } = given;
    const number = registry.reserve();
    const { world, restored } = this.#parts.make(options, { id: `s${number}`, salt: number, copy });
    const claims = world.claims();
    try {
      registry.add(world, { ...claims, adminToken: world.adminToken });
    } catch (error) {
      if (!(error instanceof SessionRefusedError) || restored === undefined) throw error;
      // Which of its keys and tokens is taken: one it keeps as saved, or a well-known one a copy draws anew.
      const kept = !isFree(registry, world, restored.kept);
      if (!kept && (restored.copy || isFree(registry, world, without(claims, restored.kept)))) throw error;
      // The server's own world ends only with the server: no use saying to end it.
      const root = this.#root;
      const byServer =
        claims.keyHashes.some((hash) => root.ownsKeyHash(hash)) ||
        claims.tokens.some((token) => root.ownsToken(token));
      throw new SessionRefusedError(
        error.status,
        `${error.message} ${restoredRefusal(restored.copy, kept, byServer)}`,
      );
    }
    return world;
  }
}

/** Whether no other open world holds any of these keys and tokens. */
function isFree<World extends SessionWorld>(
  registry: SessionRegistry<World>,
  world: World,
  claims: WorldClaims,
): boolean {
  try {
    registry.assertFree(world, claims);
    return true;
  } catch (error) {
    if (error instanceof SessionRefusedError) return false;
    throw error;
  }
}

/** The keys and tokens of `claims` that are not in `less`. */
function without(claims: WorldClaims, less: WorldClaims): WorldClaims {
  const hashes = new Set(less.keyHashes);
  const tokens = new Set(less.tokens);
  return {
    keyHashes: claims.keyHashes.filter((hash) => !hashes.has(hash)),
    tokens: claims.tokens.filter((token) => !tokens.has(token)),
  };
}
