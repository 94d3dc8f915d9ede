import { randomBytes } from 'node:crypto';
import { type AudienceMember, baseUrlOf } from '@company-data/contract';
import type { Dispatcher } from 'undici';
import { applyActivityEvent } from './activity/apply-event.js';
import type { ActivityOptions, ResolvedActivity } from './activity/options.js';
import { ActivityRunner } from './activity/runner.js';
import { createInProcessDispatcher } from './adapters/dispatcher.js';
import { listenErrorMessage } from './adapters/listen-error.js';
import { listen } from './adapters/listener.js';
import { adminRoute } from './admin/api.js';
import { MockClock } from './clock.js';
import { warnDeprecated } from './deprecation.js';
import { type AbortSource, type EngineResult, MockEngine, type RequestAnswerer } from './engine/engine.js';
import { FaultQueue, type FaultRates, FaultRateTable, type FaultSpec } from './engine/faults.js';
import { type LatencyProfile, LatencyTable } from './engine/latency.js';
import { type JournalEntry, type RequestJournal, requestJournal } from './engine/request-journal.js';
import { RouteTable } from './engine/routes.js';
import type { CompanySizes } from './fake/generate-records.js';
import {
  DEFAULT_SIZES,
  generateStore,
  type MockKeys,
  type MockTokens,
  type SeededStore,
} from './fake/seeded-store.js';
import { buildFixtureStore } from './fixture/build.js';
import type { ParsedFixture } from './fixture/schema.js';
import { parseFixture } from './fixture/validate.js';
import type { MockRequest } from './http/types.js';
import {
  type ApiKeyInfo,
  countRecords,
  listApiKeys,
  listWebhooks,
  type MockWebhooks,
  type RecordCounts,
} from './inventory.js';
import type { JournalReader } from './journal/bounded-journal.js';
import { DEFAULT_JOURNAL_LIMIT, type JournalReadOptions } from './journal/rules.js';
import type { MockJournals, MockServer, MockSession, MockSessions } from './mock-server.js';
import { openApiRoute } from './openapi.js';
import { checkOptionNames } from './option-names.js';
import {
  DEFAULT_HOST,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_ORIGIN,
  DEFAULT_SEED,
  type MockServerOptions,
  type MockSizes,
  sizesProblem,
} from './options.js';
import { type ChangeJournal, changeJournal, type DataChange } from './record-controls/change-journal.js';
import { type RecordControls, recordControls } from './record-controls/controls.js';
import { RecordEditor } from './record-controls/editor.js';
import { requestEvent } from './request-log.js';
import { RESOLVERS } from './resolvers/resolver-table.js';
import { SessionRegistry, type WorldClaims } from './sessions/session-registry.js';
import {
  checkCopy,
  DEFAULT_SESSION_ID,
  type MockSessionOptions,
  restoredRefusal,
  SessionRefusedError,
  sessionLimits,
} from './sessions/session-rules.js';
import { copyState, keptSecrets, secretRenewal } from './state/copy.js';
import { withState } from './state/options.js';
import { restoreState } from './state/restore.js';
import { saveState } from './state/save.js';
import type { MockState } from './state/schema.js';
import type { World } from './state/world.js';
import { hashKey } from './store/keys.js';
import type { Conversation, Lead } from './store/leads.js';
import type { KeyOptions, MockStore } from './store/mock-store.js';
import { checkQuota, DEFAULT_QUOTA, type Quota, type QuotaInput, Throttle } from './store/quota.js';
import { checkPattern, type KeyDirectory, type RequestPattern } from './verify/pattern.js';
import { UnmatchedLog, type UnmatchedRequest } from './verify/unmatched.js';
import { JOURNAL_OFF, VerificationError, type VerifyResult, verifyRequests } from './verify/verify.js';

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
  return new MockServerImpl(options, options.origin ?? DEFAULT_ORIGIN);
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
  const server = new MockServerImpl(options, undefined);
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

/** Where a world stands: the server's default session, or a session of a server. */
interface WorldPlace {
  readonly id: string;
  /** 0 for the default session; a session's number gives it keys and tokens of its own. */
  readonly salt: number;
  /** The server a session belongs to. */
  readonly server?: MockServerImpl | undefined;
  /** A session restored from a state as a copy: its well-known keys and tokens its own (see `copy`). */
  readonly copy?: boolean | undefined;
}

const DEFAULT_PLACE: WorldPlace = { id: DEFAULT_SESSION_ID, salt: 0 };

/** A server's default session (with its listener, dispatcher and sessions), or one of its sessions. */
class MockServerImpl implements MockServer, MockSession {
  readonly id: string;
  readonly #salt: number;
  /** The server this session belongs to; undefined for a server's default session (the server itself). */
  readonly #server: MockServerImpl | undefined;
  /** The server's sessions, made on the first one (a server without sessions routes nothing). */
  #registry: SessionRegistry<MockServerImpl> | undefined;
  #sessionsView: MockSessions | undefined;
  /** What the listener and the dispatcher hand requests to: this world's engine, or the route to a session's. */
  readonly #front: RequestAnswerer;
  readonly clock: MockClock;
  readonly adminToken: string;
  readonly #options: MockServerOptions;
  #source: DataSource;
  readonly maxBodyBytes: number;
  readonly #throttle: Throttle;
  readonly #faults = new FaultQueue();
  readonly #journal: RequestJournal;
  readonly #changes: ChangeJournal;
  readonly journals: MockJournals;
  readonly #unmatched: UnmatchedLog;
  /** The one path every record change takes (controls, admin API, activity). */
  readonly #editor: RecordEditor;
  readonly records: RecordControls;
  readonly #engine: MockEngine;
  readonly #activity: ActivityRunner;
  #latency: LatencyTable | undefined;
  #faultRates: FaultRateTable | undefined;
  #seeded: SeededStore;
  #leadFailures = 0;
  #origin: string | undefined;
  #dispatcher: Dispatcher | undefined;
  #close: (() => Promise<void>) | undefined;
  #closed: Promise<void> | undefined;
  /**
   * A session restored from a state, until it is registered: whether it is a copy, and the keys and tokens it
   * holds as saved, which a copy cannot give values of its own (what a 409 on them says).
   */
  #restored: { readonly copy: boolean; readonly kept: WorldClaims } | undefined;

  constructor(given: MockServerOptions, origin: string | undefined, place: WorldPlace = DEFAULT_PLACE) {
    const { options, state } = withState(given);
    this.id = place.id;
    this.#salt = place.salt;
    this.#server = place.server;
    // Checked at once: a server with bad limits fails when made, not at its first session.
    if (place.server === undefined) sessionLimits(options);
    this.#options = options;
    this.#source = {
      seed: options.seed ?? DEFAULT_SEED,
      sizes: resolveSizes(options.sizes),
      fixture: options.fixture === undefined ? undefined : parseFixture(options.fixture),
    };
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    if (!Number.isInteger(this.maxBodyBytes) || this.maxBodyBytes < 0)
      throw new RangeError('maxBodyBytes must be an integer ≥ 0');
    this.#activity = new ActivityRunner((event) =>
      applyActivityEvent(this.#editor, this.#seeded.store.primary, event),
    );
    this.clock = new MockClock(options.now, { mode: options.clock, beforeSet: () => this.#catchUp() });
    this.adminToken = options.adminToken ?? randomBytes(18).toString('base64url');
    this.#throttle = new Throttle(defaultQuota(options));
    const journalLimit = options.journalLimit ?? DEFAULT_JOURNAL_LIMIT;
    this.#journal = requestJournal(journalLimit);
    this.#changes = changeJournal(journalLimit);
    // Read through the server: what the clock has brought is applied first.
    this.journals = {
      requests: caughtUpJournal(this.#journal, () => this.#catchUp()),
      changes: caughtUpJournal(this.#changes, () => this.#catchUp()),
    };
    this.#unmatched = new UnmatchedLog(options.onUnmatchedRequest);
    this.#seeded = this.#build();
    this.#editor = new RecordEditor({
      store: () => this.#seeded.store,
      nowMs: () => this.clock.nowMs(),
      journal: this.#changes,
    });
    this.records = caughtUp(recordControls(this.#editor), () => this.#catchUp());
    this.#applyChaos();
    this.#activity.start(this.#source.seed, options.activity, this.clock.initialMs());
    if (origin !== undefined) this.#origin = checkOrigin(origin);
    const server = this;
    const { onRequest } = options;
    this.#engine = new MockEngine(ROUTES, {
      get store() {
        return server.#seeded.store;
      },
      clock: this.clock,
      beforeRequest: () => this.#catchUp(),
      throttle: this.#throttle,
      faults: this.#faults,
      get latency() {
        return server.#latency;
      },
      get faultRates() {
        return server.#faultRates;
      },
      journal: this.#journal,
      maxBodyBytes: this.maxBodyBytes,
      takeLeadFailure: () => {
        if (this.#leadFailures === 0) return false;
        this.#leadFailures--;
        return true;
      },
      sideRoutes: [adminRoute(this, this.maxBodyBytes), openApiRoute(() => this.#originOrThrow)],
      // Keys no session holds reach the default world: it says when a key's session ended.
      endedKey: place.server === undefined ? (key) => this.#endedKey(key) : undefined,
      onServed:
        onRequest && ((request, atMs, served, ms) => onRequest(requestEvent(request, atMs, served, ms))),
      onUnmatched: (request, atMs, status, { reason, detail }) =>
        this.#unmatched.record({
          at: new Date(atMs).toISOString(),
          method: request.method,
          path: request.path,
          status,
          reason,
          detail,
          ...(place.server === undefined ? {} : { session: place.id }),
        }),
    });
    if (state !== undefined && place.server === undefined) restoreState(this.#world, state);
    else if (state !== undefined) {
      // Read before the restore: what a new session of the state's seed draws is what a copy holds.
      const renewal = secretRenewal(state, this.#seeded);
      const copy = place.copy === true;
      this.#restored = { copy, kept: keptSecrets(state, renewal) };
      restoreState(this.#world, copy ? copyState(state, renewal) : state);
    }
    this.#front =
      place.server === undefined
        ? {
            handle: (request, abort) => {
              const ended = this.#registry?.endedAnswer(request);
              if (ended !== undefined) return Promise.resolve({ response: ended });
              return this.#engineFor(request).handle(request, abort);
            },
            abandoned: (request) => this.#engineFor(request).abandoned(request),
          }
        : this.#engine;
  }

  /** The engine of the session a request belongs to (this one's while it has no sessions). */
  #engineFor(request: MockRequest): MockEngine {
    const registry = this.#registry;
    if (registry === undefined || registry.size === 0) return this.#engine;
    return registry.route(request).#engine;
  }

  async listen(port: number, host: string): Promise<void> {
    const listener = await listen(this.#front, { port, host, maxBodyBytes: this.maxBodyBytes });
    this.#origin = listener.origin;
    this.#close = () => listener.close();
  }

  #build(source: DataSource = this.#source): SeededStore {
    const nowMs = this.clock.initialMs();
    return source.fixture
      ? buildFixtureStore(source.fixture, source.seed, nowMs, this.#salt)
      : generateStore(source.seed, source.sizes, nowMs, this.#salt);
  }

  /** The registry this world's keys and tokens are checked against: its server's. */
  get #sessionRegistry(): SessionRegistry<MockServerImpl> | undefined {
    return (this.#server ?? this).#registry;
  }

  /** Makes sure no other session holds what new data would route here (a fixture's keys and tokens). */
  #claim(seeded: SeededStore): void {
    this.#sessionRegistry?.assertFree(this, claimsOf(seeded));
  }

  ownsKeyHash(hash: string): boolean {
    return this.#store.keys.hasHash(hash);
  }

  keyHashes(): readonly string[] {
    return this.#store.keys.all().map((key) => key.hash);
  }

  /** When and how the ended session that held a key this world does not hold ended, if one did. */
  #endedKey(key: string): string | undefined {
    const registry = this.#registry;
    if (registry === undefined) return undefined;
    const hash = hashKey(key);
    return this.ownsKeyHash(hash) ? undefined : registry.endedKeyDetail(hash);
  }

  ownsToken(token: string): boolean {
    return this.#store.audiences.get(token) !== undefined || this.#store.leadSources.get(token) !== undefined;
  }

  ended(): void {
    this.#closed ??= (async () => {
      await this.#dispatcher?.close();
    })();
  }

  get #originOrThrow(): string {
    if (this.#origin === undefined) throw new Error('The mock server is not listening yet');
    return this.#origin;
  }

  get baseURL(): string {
    return baseUrlOf(this.#originOrThrow);
  }

  get apiRoot(): string {
    return this.#originOrThrow;
  }

  get keys(): MockKeys {
    return this.#seeded.keys;
  }

  get tokens(): MockTokens {
    return this.#seeded.tokens;
  }

  get #store(): MockStore {
    return this.#seeded.store;
  }

  get dispatcher(): Dispatcher {
    this.#dispatcher ??= createInProcessDispatcher(this.#front, this.#originOrThrow, this.maxBodyBytes);
    return this.#dispatcher;
  }

  handle(request: MockRequest, abort?: AbortSource): Promise<EngineResult> {
    return this.#front.handle(request, abort);
  }

  get sessions(): MockSessions {
    const server = this.#server;
    return server === undefined ? this.#ownSessions() : scopedSessions(this, server.#ownSessions());
  }

  #ownSessions(): MockSessions {
    this.#sessionsView ??= this.#sessionsOf();
    return this.#sessionsView;
  }

  #sessionsOf(): MockSessions {
    const registry = () =>
      (this.#registry ??= new SessionRegistry<MockServerImpl>(this, {
        ...sessionLimits(this.#options),
        webhookToken,
      }));
    return {
      create: (options) => this.#createSession(registry(), options),
      get: (id) => registry().get(id),
      list: () => registry().list(),
      info: (id) => registry().info(id),
      end: (id) => registry().end(id),
      get size() {
        return registry().size;
      },
    };
  }

  #createSession(registry: SessionRegistry<MockServerImpl>, given: MockSessionOptions = {}): MockSession {
    checkOptionNames(given, 'sessions.create()');
    checkCopy(given);
    const { copy, ...options } = given;
    const number = registry.reserve();
    const id = `s${number}`;
    const { onRequest, onUnmatchedRequest } = this.#options;
    const session = new MockServerImpl(
      {
        ...options,
        maxBodyBytes: this.maxBodyBytes,
        // The server's request log, each line saying which session answered.
        onRequest: onRequest && ((event) => onRequest({ ...event, session: id })),
        onUnmatchedRequest,
      },
      this.#origin,
      { id, salt: number, server: this, copy },
    );
    const claims = claimsOf(session.#seeded);
    try {
      registry.add(session, { ...claims, adminToken: session.adminToken });
    } catch (error) {
      const restored = session.#restored;
      if (!(error instanceof SessionRefusedError) || restored === undefined) throw error;
      // Which of its keys and tokens is taken: one it keeps as saved, or a well-known one a copy draws anew.
      const kept = !isFree(registry, session, restored.kept);
      if (!kept && (restored.copy || isFree(registry, session, without(claims, restored.kept)))) throw error;
      // The server's own world ends only with the server: no use saying to end it.
      const byServer =
        claims.keyHashes.some((hash) => this.ownsKeyHash(hash)) ||
        claims.tokens.some((token) => this.ownsToken(token));
      throw new SessionRefusedError(
        error.status,
        `${error.message} ${restoredRefusal(restored.copy, kept, byServer)}`,
      );
    }
    session.#restored = undefined;
    return session;
  }

  end(): void {
    (this.#server ?? this).#ownSessions().end(this.id);
  }

  reset(): void {
    this.clock.reset();
    this.#seeded = this.#build();
    this.#throttle.configure(defaultQuota(this.#options));
    this.#faults.clear();
    this.#journal.clear();
    this.#changes.clear();
    this.#unmatched.clearKept();
    this.#leadFailures = 0;
    this.#applyChaos();
    this.#activity.start(this.#source.seed, this.#options.activity, this.clock.initialMs());
  }

  /** The options' latency profile and fault rates, their streams started from the seed. */
  #applyChaos(): void {
    this.setLatency(this.#options.latency ?? false);
    this.setFaultRate(this.#options.faultRate ?? false);
  }

  setLatency(latency: LatencyProfile | false): void {
    this.#latency = latency === false ? undefined : new LatencyTable(latency, this.#source.seed);
  }

  setFaultRate(rates: FaultRates | false): void {
    this.#faultRates = rates === false ? undefined : new FaultRateTable(rates, this.#source.seed);
  }

  setActivity(activity: ActivityOptions | false): void {
    this.#catchUp();
    this.#activity.start(this.#source.seed, activity, this.clock.nowMs());
  }

  activity(): ResolvedActivity | false {
    return this.#activity.activity;
  }

  /** Applies what the clock has brought since the last call (nothing, in a few nanoseconds, most of the time). */
  #catchUp(): void {
    this.#activity.catchUp(this.clock.nowMs());
  }

  createKey(options: KeyOptions = {}): string {
    if (options.value !== undefined)
      this.#sessionRegistry?.assertFree(this, { keyHashes: [hashKey(options.value)], tokens: [] });
    return this.#store.createKey(options, this.clock.nowMs()).value;
  }

  revokeKey(value: string): void {
    this.#store.keys.require(value).revoked = true;
  }

  expireKey(value: string): void {
    this.#store.keys.require(value).expiresAt = this.clock.nowMs();
  }

  setQuota(quota: QuotaInput | false): void {
    this.#throttle.configure(checkQuota(quota, 'setQuota'));
  }

  setThrottle(quota: QuotaInput | false): void {
    warnDeprecated('setThrottle', 'setQuota');
    this.setQuota(quota);
  }

  setKeyQuota(value: string, quota: QuotaInput | false | null): void {
    const key = this.#store.keys.require(value);
    key.quota = quota === null ? undefined : checkQuota(quota, 'setKeyQuota');
    this.#throttle.forget(key.id);
  }

  setKeyThrottle(value: string, quota: QuotaInput | false | null): void {
    warnDeprecated('setKeyThrottle', 'setKeyQuota');
    this.setKeyQuota(value, quota);
  }

  apiKeys(): readonly ApiKeyInfo[] {
    return listApiKeys(this.#store);
  }

  webhooks(): MockWebhooks {
    return listWebhooks(this.#store, this.apiRoot, this.clock.nowMs());
  }

  injectFault(fault: FaultSpec): void {
    this.#faults.add(fault);
  }

  injectLeadFailure(times = 1): void {
    if (!Number.isInteger(times) || times < 1) throw new RangeError('times must be an integer ≥ 1');
    this.#leadFailures += times;
  }

  changes(options?: JournalReadOptions): readonly DataChange[] {
    return this.journals.changes.read(options).data;
  }

  clearChanges(): void {
    this.#catchUp();
    this.#changes.clear();
  }

  journal(options?: JournalReadOptions): readonly JournalEntry[] {
    return this.journals.requests.read(options).data;
  }

  recordCounts(): readonly RecordCounts[] {
    this.#catchUp();
    return countRecords(this.#store);
  }

  clearJournal(): void {
    this.#journal.clear();
  }

  verify(pattern: RequestPattern = {}): VerifyResult {
    if (this.#options.journalLimit === 0) throw new Error(JOURNAL_OFF);
    // Checked before anything is reported: a bad pattern leaves the unmatched requests to report.
    const checked = checkPattern(pattern, this.#keyDirectory());
    const result = verifyRequests(
      this.journal(),
      checked,
      this.#unmatched.takeFailing(),
      this.journals.requests.stats(),
    );
    if (!result.ok) throw new VerificationError(result);
    return result;
  }

  /** The keys a pattern's `key` may name: a well-known key's name, a key's value, or a key's own name. */
  #keyDirectory(): KeyDirectory {
    const { keys } = this.#store;
    const wellKnown = this.keys;
    const names = keys.all().map((key) => key.name);
    return {
      names: [...Object.keys(wellKnown), ...names],
      nameOf: (key) => {
        const value = Object.hasOwn(wellKnown, key) ? wellKnown[key as keyof MockKeys] : key;
        return keys.find(value)?.name ?? (names.includes(key) ? key : undefined);
      },
    };
  }

  unmatched(): readonly UnmatchedRequest[] {
    return this.#unmatched.entries();
  }

  clearUnmatched(): void {
    this.#unmatched.clear();
  }

  loadFixture(fixture: unknown): void {
    const source: DataSource = {
      seed: this.#source.seed,
      sizes: this.#source.sizes,
      fixture: parseFixture(fixture),
    };
    // Built completely before it replaces anything: a failure leaves the current data in place.
    const seeded = this.#build(source);
    this.#claim(seeded);
    this.#seeded = seeded;
    this.#source = source;
    this.#changes.clear();
    this.#restartActivity();
  }

  reseed(options: { seed?: number; sizes?: MockSizes } = {}): void {
    const source: DataSource = {
      seed: options.seed ?? this.#source.seed,
      sizes: resolveSizes(options.sizes),
    };
    this.#seeded = this.#build(source);
    this.#source = source;
    this.#changes.clear();
    this.#restartActivity();
  }

  /** The activity in force, on new data: a new schedule from now, from the (new) seed. */
  #restartActivity(): void {
    const activity = this.#activity.activity;
    this.#activity.start(this.#source.seed, activity, this.clock.nowMs());
  }

  saveState(): MockState {
    this.#catchUp();
    return saveState(this.#world);
  }

  /** This world's parts, as saving and restoring a state read and write them. */
  get #world(): World {
    const server = this;
    return {
      source: this.#source,
      options: this.#options,
      clock: this.clock,
      seeded: this.#seeded,
      throttle: this.#throttle,
      activity: this.#activity,
      get latency() {
        return server.#latency;
      },
      set latency(table) {
        server.#latency = table;
      },
      get faultRates() {
        return server.#faultRates;
      },
      set faultRates(table) {
        server.#faultRates = table;
      },
      get leadFailures() {
        return server.#leadFailures;
      },
      set leadFailures(times) {
        server.#leadFailures = times;
      },
    };
  }

  members(audienceToken: string): readonly AudienceMember[] {
    const audience = this.#store.audiences.get(audienceToken);
    if (!audience) throw new Error('No audience has this token');
    return [...audience.members];
  }

  conversations(): readonly Conversation[] {
    return this.#store.leads.conversations.map((conversation) => ({
      ...conversation,
      leads: [...conversation.leads],
    }));
  }

  leads(): readonly Lead[] {
    return [...this.#store.leads.all];
  }

  close(): Promise<void> {
    if (this.#server !== undefined) this.end();
    this.#registry?.close();
    this.#closed ??= (async () => {
      await this.#close?.();
      await this.#dispatcher?.close();
    })();
    // Closed first; then the unmatched requests still to report, once (the next call resolves).
    return this.#closed.then(() => this.#unmatched.throwFailing());
  }
}

/** The record controls, each applying what the clock has brought first, so they act on the data as it is now. */
function caughtUp(controls: RecordControls, catchUp: () => void): RecordControls {
  return {
    create: (...args) => {
      catchUp();
      return controls.create(...args);
    },
    update: (...args) => {
      catchUp();
      return controls.update(...args);
    },
    delete: (...args) => {
      catchUp();
      controls.delete(...args);
    },
    get: (...args) => {
      catchUp();
      return controls.get(...args);
    },
  };
}

/** A journal whose reads apply what the clock has brought first (its emptying too, as the controls do). */
function caughtUpJournal<Entry>(journal: JournalReader<Entry>, catchUp: () => void): JournalReader<Entry> {
  return {
    read: (options) => {
      catchUp();
      return journal.read(options);
    },
    stats: () => {
      catchUp();
      return journal.stats();
    },
    clear: () => {
      catchUp();
      journal.clear();
    },
  };
}

/** What a world's data routes to it: its keys' hashes and its webhook tokens. */
function claimsOf({ store }: SeededStore): WorldClaims {
  return {
    keyHashes: store.keys.all().map((key) => key.hash),
    tokens: [...store.audiences.values(), ...store.leadSources.values()].map((item) => item.token),
  };
}

/** Whether no other open world holds any of these keys and tokens. */
function isFree(
  registry: SessionRegistry<MockServerImpl>,
  world: MockServerImpl,
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

/**
 * A session's view of its server's sessions, for its admin token: itself only. Creating or listing sessions
 * takes the server's admin token.
 */
function scopedSessions(session: MockSession, sessions: MockSessions): MockSessions {
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

/** Where a server's data comes from; reset rebuilds from it. */
interface DataSource {
  readonly seed: number;
  readonly sizes: CompanySizes;
  readonly fixture?: ParsedFixture | undefined;
}

/** The options' quota of keys without their own, from `quota` or (deprecated) `throttle`. */
function defaultQuota(options: MockServerOptions): Quota | false {
  if (options.throttle !== undefined) warnDeprecated('the option throttle', 'quota');
  return checkQuota(options.quota ?? options.throttle ?? DEFAULT_QUOTA, 'the option quota');
}

function resolveSizes(sizes: MockSizes = {}): CompanySizes {
  const problem = sizesProblem(sizes);
  if (problem !== undefined)
    throw new RangeError(problem.field ? `sizes.${problem.field} ${problem.text}` : `sizes: ${problem.text}`);
  const resolved = { ...DEFAULT_SIZES, ...sizes };
  if (resolved.users === 0 && (resolved.recordings > 0 || resolved.calls > 0)) resolved.users = 1;
  return resolved;
}

function checkOrigin(origin: string): string {
  const url = new URL(origin);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new RangeError(`Unsupported origin ${origin}`);
  return url.origin;
}
