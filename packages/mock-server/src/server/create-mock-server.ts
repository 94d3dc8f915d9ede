import { randomBytes } from 'node:crypto';
import { applyActivityEvent } from '../data/activity/apply-event.js';
import { ActivityRunner } from '../data/activity/runner.js';
import { MockClock } from '../data/clock.js';
import { recordControls } from '../data/record-controls/controls.js';
import { RecordEditor } from '../data/record-controls/editor.js';
import { requestEvent } from '../inspect/request-log.js';
import { DEFAULT_HOST, listenErrorMessage } from '../serve/adapters/listen-address.js';
import { MockEngine } from '../serve/engine/engine.js';
import type { EndedSecrets } from '../serve/engine/resolve-request.js';
import { RouteTable } from '../serve/engine/routes.js';
import type { MockRequest } from '../serve/http/types.js';
import { openApiRoute } from '../serve/openapi.js';
import { RESOLVERS } from '../serve/resolvers/resolver-table.js';
import { adminRoute } from './admin/api.js';
import type { MockServer } from './mock-server.js';
import { MockWorld, type WorldParts, worldState } from './mock-world.js';
import { checkOptionNames } from './option-names.js';
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_ORIGIN, type MockServerOptions } from './options.js';
import { type MadeSession, SessionFront, type SessionPlace } from './session-front.js';
import { DEFAULT_SESSION_ID, sessionLimits } from './sessions/session-rules.js';
import { copyState, keptSecrets, secretRenewal } from './state/copy.js';
import { withState } from './state/options.js';
import { restoreState } from './state/restore.js';
import type { MockState } from './state/schema.js';
import { caughtUpControls } from './world/caught-up.js';
import { Chaos } from './world/chaos.js';
import { dataSourceOf, WorldData } from './world/data-source.js';
import { WorldJournals } from './world/journals.js';
import { KeyControls } from './world/key-controls.js';
import { LiveFeed } from './world/live-feed.js';

// The composition root: it makes each part of a world and wires them (the clock to the activity, the data to
// the record editor, the journals and the chaos to the engine, the engine to the admin API that drives the
// world); each part does its own work. What a test holds is the MockServer interface, which the admin API and
// the CLI drive without importing this file.

/**
 * Options of {@link startMockServer}: the server's options plus where to listen.
 *
 * @example
 * ```ts
 * const server = await startMockServer({ port: 4010, host: '127.0.0.1', seed: 3 });
 * ```
 */
export interface StartMockServerOptions extends MockServerOptions {
  /** Port; 0 (default) picks a free one. */
  port?: number;
  /** Interface to bind (default `127.0.0.1`). */
  host?: string;
}

/**
 * Creates an in-process mock server: no socket, reached through {@link MockServer.dispatcher}.
 * Takes milliseconds with the default sizes (records are derived lazily from the seed).
 *
 * @param options - seed, sizes, clock, quota, origin and limits; or a `state` saved by
 * {@link MockServer.saveState} to make that world again.
 * @returns the server.
 * @throws RangeError for an option it does not know (naming the closest one), invalid sizes, time, quota or
 * origin; {@link MockStateError} (a RangeError) naming the field of a state it cannot restore.
 * @example
 * ```ts
 * const server = createMockServer({ seed: 42 });
 * server.clock.advance(16 * 60 * 1000);
 * const again = createMockServer({ state: server.saveState() }); // the same world, as it is now
 * ```
 */
export function createMockServer(options: MockServerOptions = {}): MockServer {
  checkOptionNames(options, 'createMockServer()');
  return makeWorld(options, options.origin ?? DEFAULT_ORIGIN, SERVER_PLACE).world;
}

/**
 * Starts a mock server behind a real node:http listener on loopback.
 *
 * @param options - the server's options (a saved `state` too) plus `port` (0 = ephemeral) and `host` (default
 * `127.0.0.1`).
 * @returns the running server; its `baseURL` is e.g. `http://127.0.0.1:4010/v1`.
 * @throws Error when the port cannot be bound, saying why and which option to change (e.g. `port 4010 on
 * 127.0.0.1 is already in use …`); its `code` is Node's (`EADDRINUSE`, `EACCES`, …). RangeError for an
 * option it does not know or a value it refuses, as {@link createMockServer}.
 * @example
 * ```ts
 * const server = await startMockServer({ port: 0 });
 * console.log(server.baseURL);
 * await server.close();
 * ```
 */
export async function startMockServer(options: StartMockServerOptions = {}): Promise<MockServer> {
  checkOptionNames(options, 'startMockServer()');
  const server = makeWorld(options, undefined, SERVER_PLACE).world;
  try {
    await server.listen(options.port ?? 0, options.host ?? DEFAULT_HOST);
  } catch (error) {
    const message = listenErrorMessage(error, options, 'option');
    if (message === undefined) throw error;
    // The code stays on the error: the CLI words the same message with its flags.
    throw Object.assign(new Error(message, { cause: error }), {
      code: (error as NodeJS.ErrnoException).code,
    });
  }
  return server;
}

/** Compiled once: every server answers the same operations. */
const ROUTES = new RouteTable(RESOLVERS);

/** The webhook token in a request's path, if it is a webhook's: what routes it to its session. */
const webhookToken = (request: MockRequest) => ROUTES.webhookToken(request.method, request.path);

/** Where a world stands: a server's own world, or a session of a server, with that server's sessions. */
interface WorldPlace extends SessionPlace {
  /** The sessions of the server a session belongs to; undefined for a server's own world. */
  readonly server?: SessionFront<MockWorld> | undefined;
}

const SERVER_PLACE: WorldPlace = { id: DEFAULT_SESSION_ID, salt: 0 };

/**
 * Makes a world: its parts, a saved state restored into them, and the world a test holds over them, with its
 * engine and its server's sessions.
 *
 * @param given - the world's options (a saved `state` too).
 * @param origin - the origin in-process requests use; undefined for a server that listens on a port.
 * @param place - a server's own world, or a session of a server.
 */
function makeWorld(
  given: MockServerOptions,
  origin: string | undefined,
  place: WorldPlace,
): MadeSession<MockWorld> {
  const { options, state } = withState(given);
  const { server } = place;
  const parts = partsOf(options, place);
  const restored = state === undefined ? undefined : restore(parts, state, place);
  // A server's own world answers the keys and tokens no session holds: it says when their session ended.
  let front: SessionFront<MockWorld> | undefined;
  const ended: EndedSecrets | undefined =
    server === undefined
      ? { key: (key) => front?.endedKeyDetail(key), token: (token) => front?.endedTokenDetail(token) }
      : undefined;
  const world = new MockWorld({
    ...parts,
    id: place.id,
    session: server !== undefined,
    origin: origin === undefined ? undefined : checkOrigin(origin),
    engineOf: (self) => engineOf(self, parts, ended),
    sessionsOf: (self) => {
      front = server ?? serverSessions(self, options);
      return front;
    },
  });
  return { world, restored };
}

/** A world's parts, before the world a test holds over them. */
type Parts = Omit<WorldParts, 'id' | 'session' | 'origin' | 'engineOf' | 'sessionsOf'>;

/**
 * Makes each part of a world, in the order its options are checked (sessions' limits, sizes and fixture,
 * body limit, clock, quota, journals, then the data, the latency and fault rates, the activity), and wires
 * them: the clock catches the activity up before it moves, the activity changes records through the record
 * editor, the editor journals each change.
 */
function partsOf(options: MockServerOptions, place: WorldPlace): Parts {
  // Checked at once: a server with bad limits fails when made, not at its first session.
  if (place.server === undefined) sessionLimits(options);
  const source = dataSourceOf(options);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!Number.isInteger(maxBodyBytes) || maxBodyBytes < 0)
    throw new RangeError('maxBodyBytes must be an integer ≥ 0');
  const clock = new MockClock(options.now, { mode: options.clock, beforeSet: catchUp });
  const adminToken = options.adminToken ?? randomBytes(18).toString('base64url');
  const keys = new KeyControls({ store: () => data.store, clock }, options);
  const journals = new WorldJournals(options, catchUp, place.server === undefined ? undefined : place.id);
  const data = new WorldData(source, place.salt, () => clock.initialMs());
  // The one path every record change takes (the controls, the admin API, the activity).
  const editor = new RecordEditor({
    store: () => data.store,
    nowMs: () => clock.nowMs(),
    journal: journals.changes,
  });
  const activity = new ActivityRunner((event) => applyActivityEvent(editor, data.store.primary, event));
  const chaos = new Chaos(() => data.source.seed);
  chaos.reset(options.latency ?? false, options.faultRate ?? false);
  activity.start(source.seed, options.activity, clock.initialMs());
  /** Applies what the clock has brought since the last call (nothing, in a few nanoseconds, most of the time). */
  function catchUp(): void {
    activity.catchUp(clock.nowMs());
  }
  const records = caughtUpControls(recordControls(editor), catchUp);
  const { onRequest } = options;
  const live = new LiveFeed(
    place.id,
    journals.requests,
    clock,
    onRequest && ((request, atMs, served, ms) => onRequest(requestEvent(request, atMs, served, ms))),
  );
  return {
    options,
    adminToken,
    maxBodyBytes,
    clock,
    data,
    activity,
    catchUp,
    records,
    chaos,
    journals,
    keys,
    live,
  };
}

/**
 * Restores a saved state into a world just made from its options. A session restored as a copy holds keys and
 * tokens of its own; what it keeps as saved is returned, for the 409 that says which one another session holds.
 */
function restore(parts: Parts, state: MockState, place: WorldPlace): MadeSession<MockWorld>['restored'] {
  if (place.server === undefined) {
    restoreState(worldState(parts), state);
    return undefined;
  }
  // Read before the restore: what a new session of the state's seed draws is what a copy holds.
  const renewal = secretRenewal(state, parts.data.seeded);
  const copy = place.copy === true;
  const kept = keptSecrets(state, renewal);
  restoreState(worldState(parts), copy ? copyState(state, renewal) : state);
  return { copy, kept };
}

/**
 * A world's engine, handed the routes compiled once for every server: on each request it reads the world's
 * store, clock, quota and chaos, journals the request, and hands the admin API and the OpenAPI document to
 * their side routes (the admin API drives this world); a server's own world says when the session of a key or
 * webhook token it does not know ended (`ended`).
 */
function engineOf(world: MockWorld, parts: Parts, ended: EndedSecrets | undefined): MockEngine {
  const { data, clock, keys, chaos, journals, maxBodyBytes, catchUp, live } = parts;
  return new MockEngine(ROUTES, {
    get store() {
      return data.store;
    },
    clock,
    beforeRequest: catchUp,
    throttle: keys.throttle,
    faults: chaos.faults,
    get latency() {
      return chaos.latency;
    },
    get faultRates() {
      return chaos.faultRates;
    },
    journal: journals.requests,
    maxBodyBytes,
    takeLeadFailure: () => chaos.takeLeadFailure(),
    sideRoutes: [adminRoute(world, maxBodyBytes), openApiRoute(() => world.apiRoot)],
    // The request log's hook, and the watch page's while one is open: read per request.
    get onServed() {
      return live.onServed;
    },
    onUnmatched: journals.noteUnmatched,
    ended,
  });
}

/**
 * The sessions of a server's own world: each made as a world of its own, with the server's origin, body
 * limit and callbacks (its request log saying which session answered).
 */
function serverSessions(root: MockWorld, options: MockServerOptions): SessionFront<MockWorld> {
  const { onRequest, onUnmatchedRequest } = options;
  const sessions: SessionFront<MockWorld> = new SessionFront(root, options, {
    webhookToken,
    make: (given, { id, salt, copy }) =>
      makeWorld(
        {
          ...given,
          maxBodyBytes: root.maxBodyBytes,
          // The server's request log, each line saying which session answered.
          onRequest: onRequest && ((event) => onRequest({ ...event, session: id })),
          onUnmatchedRequest,
        },
        root.knownOrigin,
        { id, salt, copy, server: sessions },
      ),
  });
  return sessions;
}

function checkOrigin(origin: string): string {
  const url = new URL(origin);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new RangeError(`Unsupported origin ${origin}`);
  return url.origin;
}
