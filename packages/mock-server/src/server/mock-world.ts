import { type AudienceMember, baseUrlOf } from '@company-data/contract';
import type { Dispatcher } from 'undici';
import type { ActivityOptions, ResolvedActivity } from '../data/activity/options.js';
import type { ActivityRunner } from '../data/activity/runner.js';
import type { MockClock } from '../data/clock.js';
import { warnDeprecated } from '../data/deprecation.js';
import type { MockKeys, MockTokens } from '../data/fake/seeded-store.js';
import { parseFixture } from '../data/fixture/validate.js';
import type { JournalReadOptions } from '../data/journal/limits.js';
import type { RoutingSecrets } from '../data/random/secret-draws.js';
import type { DataChange } from '../data/record-controls/change-journal.js';
import type { RecordControls } from '../data/record-controls/controls.js';
import { hashKey } from '../data/store/keys.js';
import type { Conversation, Lead } from '../data/store/leads.js';
import type { KeyOptions } from '../data/store/mock-store.js';
import type { QuotaInput, QuotaReadout } from '../data/store/quota.js';
import { type ApiKeyInfo, listWebhooks, type MockWebhooks } from '../inspect/keys-and-webhooks.js';
import { countRecords, type RecordCounts } from '../inspect/record-counts.js';
import type { RequestPattern } from '../inspect/verify/pattern.js';
import type { VerifyResult } from '../inspect/verify/recorded-requests.js';
import type { UnmatchedRequest } from '../inspect/verify/unmatched.js';
import type { ClientAbort, EngineResult, MockEngine, RequestAnswerer } from '../serve/engine/engine.js';
import type { ArmedFaultInfo, FaultRates, FaultSpec } from '../serve/engine/faults.js';
import type { LatencyProfile } from '../serve/engine/latency.js';
import type { JournalEntry } from '../serve/engine/request-journal.js';
import type { MockRequest } from '../serve/http/types.js';
import type { MockJournals, MockServer, MockSession, MockSessions } from './mock-server.js';
import type { MockServerOptions, MockSizes } from './options.js';
import type { FrontWorld, SessionFront } from './session-front.js';
import { saveState } from './state/save.js';
import type { MockState } from './state/schema.js';
import type { World } from './state/world.js';
import type { Chaos } from './world/chaos.js';
import { type DataSource, resolveSizes, type WorldData } from './world/data-source.js';
import { Doors } from './world/doors.js';
import type { WorldJournals } from './world/journals.js';
import type { KeyControls } from './world/key-controls.js';
import type { LiveFeed } from './world/live-feed.js';

/** The parts a world is made of, as the composition root (`create-mock-server.ts`) builds and wires them. */
export interface WorldParts {
  /** `default` for a server's own world, `s1`, `s2`, … for its sessions. */
  readonly id: string;
  /** The options the world was made from (what `reset()` returns to). */
  readonly options: MockServerOptions;
  readonly adminToken: string;
  readonly maxBodyBytes: number;
  readonly clock: MockClock;
  /** The data: its source and the store built from it. */
  readonly data: WorldData;
  /** The activity the clock brings. */
  readonly activity: ActivityRunner;
  /** Applies what the clock has brought since the last call. */
  readonly catchUp: () => void;
  /** The record controls, each catching up first. */
  readonly records: RecordControls;
  readonly chaos: Chaos;
  readonly journals: WorldJournals;
  readonly keys: KeyControls;
  /** The events of its watch page. */
  readonly live: LiveFeed;
  /** Builds the world's engine, whose admin API drives this world. */
  readonly engineOf: (world: MockWorld) => MockEngine;
  /** The sessions of the world's server: a server's own world makes them; a session is given its server's. */
  readonly sessionsOf: (world: MockWorld) => SessionFront<MockWorld>;
  /** The origin in-process requests use; undefined for a server started on a port, until it listens. */
  readonly origin: string | undefined;
  /** Whether the world is a session of a server, rather than a server's own world. */
  readonly session: boolean;
}

/**
 * One world a test holds: a server's own world (the default session, with its listener, dispatcher and
 * sessions) or one of its sessions. Each control is its part's: the data ({@link WorldData}), the keys and
 * quotas ({@link KeyControls}), the chaos ({@link Chaos}), the journals ({@link WorldJournals}), the doors
 * ({@link Doors}) and the server's sessions ({@link SessionFront}); a control that touches several parts
 * (reset, a fixture loaded, a reseed) says here in which order.
 */
export class MockWorld implements MockServer, MockSession, FrontWorld {
  readonly id: string;
  readonly adminToken: string;
  readonly clock: MockClock;
  readonly maxBodyBytes: number;
  readonly records: RecordControls;
  readonly journals: MockJournals;
  /** The engine answering this world's requests. */
  readonly engine: MockEngine;
  /** The events of its watch page (`GET /__admin/events`). */
  readonly live: LiveFeed;
  readonly #parts: WorldParts;
  readonly #sessions: SessionFront<MockWorld>;
  /** What answers its requests: its engine (a session), or its server's sessions (a server's own world). */
  readonly #answerer: RequestAnswerer;
  readonly #doors: Doors;

  /** @param parts - the world's parts, built and wired by the composition root. */
  constructor(parts: WorldParts) {
    this.id = parts.id;
    this.adminToken = parts.adminToken;
    this.clock = parts.clock;
    this.maxBodyBytes = parts.maxBodyBytes;
    this.records = parts.records;
    this.journals = parts.journals.caughtUp;
    this.live = parts.live;
    this.#parts = parts;
    this.engine = parts.engineOf(this);
    this.#sessions = parts.sessionsOf(this);
    this.#answerer = parts.session ? this.engine : this.#sessions;
    this.#doors = new Doors(this.#answerer, parts.maxBodyBytes, parts.origin);
  }

  get baseURL(): string {
    return baseUrlOf(this.#doors.origin);
  }

  get apiRoot(): string {
    return this.#doors.origin;
  }

  /** The origin, once known: what a new session answers on. */
  get knownOrigin(): string | undefined {
    return this.#doors.knownOrigin;
  }

  get keys(): MockKeys {
    return this.#parts.data.keys;
  }

  get tokens(): MockTokens {
    return this.#parts.data.tokens;
  }

  get dispatcher(): Dispatcher {
    return this.#doors.dispatcher;
  }

  /** Listens on a port (a started server): see `startMockServer`. */
  listen(port: number, host: string): Promise<void> {
    return this.#doors.listen(port, host);
  }

  handle(request: MockRequest, abort?: ClientAbort): Promise<EngineResult> {
    return this.#answerer.handle(request, abort);
  }

  reset(): void {
    const { clock, data, keys, journals, chaos, activity, options } = this.#parts;
    clock.reset();
    data.rebuild();
    keys.reset();
    journals.reset();
    chaos.reset(options.latency ?? false, options.faultRate ?? false);
    activity.start(data.source.seed, options.activity, clock.initialMs());
  }

  createKey(options: KeyOptions = {}): string {
    if (options.value !== undefined) this.#claim({ keyHashes: [hashKey(options.value)], tokens: [] });
    return this.#parts.keys.createKey(options);
  }

  revokeKey(value: string): void {
    this.#parts.keys.revokeKey(value);
  }

  expireKey(value: string): void {
    this.#parts.keys.expireKey(value);
  }

  setQuota(quota: QuotaInput | false): void {
    this.#parts.keys.setQuota(quota);
  }

  setThrottle(quota: QuotaInput | false): void {
    warnDeprecated('setThrottle', 'setQuota');
    this.setQuota(quota);
  }

  setKeyQuota(value: string, quota: QuotaInput | false | null): void {
    this.#parts.keys.setKeyQuota(value, quota);
  }

  setKeyThrottle(value: string, quota: QuotaInput | false | null): void {
    warnDeprecated('setKeyThrottle', 'setKeyQuota');
    this.setKeyQuota(value, quota);
  }

  apiKeys(): readonly ApiKeyInfo[] {
    return this.#parts.keys.apiKeys();
  }

  webhooks(): MockWebhooks {
    return listWebhooks(this.#parts.data.store, this.apiRoot, this.clock.nowMs());
  }

  injectFault(fault: FaultSpec): void {
    this.#parts.chaos.injectFault(fault);
  }

  armedFaults(): readonly ArmedFaultInfo[] {
    return this.#parts.chaos.faults.armed();
  }

  faultRates(): FaultRates | false {
    return this.#parts.chaos.faultRates?.rates ?? false;
  }

  quotas(): QuotaReadout {
    return this.#parts.keys.quotas();
  }

  setLatency(latency: LatencyProfile | false): void {
    this.#parts.chaos.setLatency(latency);
  }

  setFaultRate(rates: FaultRates | false): void {
    this.#parts.chaos.setFaultRate(rates);
  }

  injectLeadFailure(times = 1): void {
    this.#parts.chaos.injectLeadFailure(times);
  }

  setActivity(activity: ActivityOptions | false): void {
    this.#parts.catchUp();
    this.#parts.activity.start(this.#parts.data.source.seed, activity, this.clock.nowMs());
  }

  activity(): ResolvedActivity | false {
    return this.#parts.activity.activity;
  }

  changes(options?: JournalReadOptions): readonly DataChange[] {
    return this.journals.changes.read(options).data;
  }

  clearChanges(): void {
    this.journals.changes.clear();
  }

  journal(options?: JournalReadOptions): readonly JournalEntry[] {
    return this.journals.requests.read(options).data;
  }

  clearJournal(): void {
    this.#parts.journals.requests.clear();
  }

  recordCounts(): readonly RecordCounts[] {
    this.#parts.catchUp();
    return countRecords(this.#parts.data.store);
  }

  verify(pattern: RequestPattern = {}): VerifyResult {
    return this.#parts.journals.verify(pattern, this.#parts.keys.directory(this.keys));
  }

  unmatched(): readonly UnmatchedRequest[] {
    return this.#parts.journals.unmatched.entries();
  }

  clearUnmatched(): void {
    this.#parts.journals.unmatched.clear();
  }

  loadFixture(fixture: unknown): void {
    const { seed, sizes } = this.#parts.data.source;
    this.#replaceData({ seed, sizes, fixture: parseFixture(fixture) });
  }

  reseed(options: { seed?: number; sizes?: MockSizes } = {}): void {
    const seed = options.seed ?? this.#parts.data.source.seed;
    this.#replaceData({ seed, sizes: resolveSizes(options.sizes) }, false);
  }

  /**
   * New data in place of the old (checked against the other sessions first, for a fixture's keys and
   * tokens), no change journaled any more, and the activity in force started again on it from now.
   */
  #replaceData(source: DataSource, claim = true): void {
    const { data, journals, activity } = this.#parts;
    data.replace(source, claim ? (claims) => this.#claim(claims) : undefined);
    journals.changes.clear();
    activity.start(source.seed, activity.activity, this.clock.nowMs());
  }

  saveState(): MockState {
    this.#parts.catchUp();
    return saveState(worldState(this.#parts));
  }

  members(audienceToken: string): readonly AudienceMember[] {
    const audience = this.#parts.data.store.audiences.get(audienceToken);
    if (!audience) throw new Error('No audience has this token');
    return [...audience.members];
  }

  conversations(): readonly Conversation[] {
    return this.#parts.data.store.leads.conversations.map((conversation) => ({
      ...conversation,
      leads: [...conversation.leads],
    }));
  }

  leads(): readonly Lead[] {
    return [...this.#parts.data.store.leads.all];
  }

  get sessions(): MockSessions {
    return this.#parts.session ? this.#sessions.scoped(this) : this.#sessions.sessions;
  }

  end(): void {
    this.#sessions.sessions.end(this.id);
  }

  close(): Promise<void> {
    if (this.#parts.session) this.end();
    else this.#sessions.close();
    // Its watch pages' streams end first: an open one would hold the dispatcher's close.
    this.live.close();
    // Closed first; then the unmatched requests still to report, once (the next call resolves).
    return this.#doors.close().then(() => this.#parts.journals.unmatched.throwFailing());
  }

  /** Its server ended it: its dispatcher closes. */
  ended(): void {
    this.live.close();
    void this.#doors.close();
  }

  claims(): RoutingSecrets {
    return this.#parts.data.claims();
  }

  ownsKeyHash(hash: string): boolean {
    return this.#parts.data.ownsKeyHash(hash);
  }

  ownsToken(token: string): boolean {
    return this.#parts.data.ownsToken(token);
  }

  /** Makes sure no other session of the server holds what would route here. */
  #claim(claims: RoutingSecrets): void {
    this.#sessions.assertFree(this, claims);
  }
}

/**
 * A world's parts as saving and restoring its state read and write them.
 *
 * @param parts - the world's parts.
 */
export function worldState(
  parts: Pick<WorldParts, 'data' | 'options' | 'clock' | 'keys' | 'activity' | 'chaos'>,
): World {
  const { data, options, clock, keys, activity, chaos } = parts;
  return {
    source: data.source,
    options,
    clock,
    seeded: data.seeded,
    throttle: keys.throttle,
    activity,
    chaos,
  };
}
