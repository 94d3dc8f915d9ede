import type { AudienceMember } from '@company-data/contract';
import type { Dispatcher } from 'undici';
import type { ActivityOptions, ResolvedActivity } from '../data/activity/options.js';
import type { MockClock } from '../data/clock.js';
import type { MockKeys, MockTokens } from '../data/fake/seeded-store.js';
import type { JournalReader } from '../data/journal/bounded-journal.js';
import type { JournalReadOptions } from '../data/journal/limits.js';
import type { DataChange } from '../data/record-controls/change-journal.js';
import type { RecordControls } from '../data/record-controls/controls.js';
import type { Conversation, Lead } from '../data/store/leads.js';
import type { KeyOptions } from '../data/store/mock-store.js';
import type { QuotaInput, QuotaReadout } from '../data/store/quota.js';
import type { ApiKeyInfo, MockWebhooks } from '../inspect/keys-and-webhooks.js';
import type { RecordCounts } from '../inspect/record-counts.js';
import type { RequestPattern } from '../inspect/verify/pattern.js';
import type { VerifyResult } from '../inspect/verify/recorded-requests.js';
import type { UnmatchedRequest } from '../inspect/verify/unmatched.js';
import type { ClientAbort, EngineResult } from '../serve/engine/engine.js';
import type { ArmedFaultInfo, FaultRates, FaultSpec } from '../serve/engine/faults.js';
import type { LatencyProfile } from '../serve/engine/latency.js';
import type { JournalEntry } from '../serve/engine/request-journal.js';
import type { MockRequest } from '../serve/http/types.js';
import type { MockSizes } from './options.js';
import type { MockSessionOptions, SessionInfo } from './sessions/session-rules.js';
import type { MockState } from './state/schema.js';

/**
 * The journals of a server, each an object of its own: its requests (what a client sent) and its changes
 * (every record created, updated or deleted). Each keeps at most `journalLimit` entries, the newest, counts
 * those it dropped, and is read in pages after a `seq`.
 *
 * @example
 * ```ts
 * const { data, missed, more } = server.journals.requests.read({ since: lastSeq, limit: 500 });
 * const dropped = server.journals.changes.stats().dropped;
 * ```
 */
export interface MockJournals {
  /** The requests received (see {@link JournalEntry}). */
  readonly requests: JournalReader<JournalEntry>;
  /** The changes of records, by the controls and the activity (see {@link DataChange}). */
  readonly changes: JournalReader<DataChange>;
}

/**
 * A running mock of the Company Data API with its test controls. Each instance owns its own data,
 * clock and controls, so parallel test files never share state.
 *
 * @example
 * ```ts
 * const server = createMockServer();
 * const response = await request(`${server.baseURL}/users/`, {
 *   dispatcher: server.dispatcher,
 *   headers: { authorization: `Bearer ${server.keys.valid}` },
 * });
 * ```
 */
export interface MockServer {
  /** `{base_url}`: the origin followed by `/v1`. */
  readonly baseURL: string;
  /** `{api_root}`: the origin, without `/v1`. */
  readonly apiRoot: string;
  /** The ready-to-use API keys. */
  readonly keys: MockKeys;
  /** The webhook tokens of the primary company. */
  readonly tokens: MockTokens;
  /** Bearer token of the admin HTTP API (under `/__admin/`). */
  readonly adminToken: string;
  /**
   * The clock: real time plus an offset, running unless created frozen. Drives key expiry, quota
   * windows, the lead deduplication window and the times of created members and leads.
   */
  readonly clock: MockClock;
  /** An undici dispatcher answering in-process (URLs must use this server's origin). */
  readonly dispatcher: Dispatcher;
  /** Largest accepted request body in bytes; adapters answer larger ones 413. */
  readonly maxBodyBytes: number;
  /**
   * Answers one request, transport-free: the entry point every way in (the dispatcher, the listener,
   * `mswHandlers`) is a thin adapter over, and the one to build your own adapter on. Applies armed
   * faults, journals the request and reports it to `onRequest`.
   *
   * @param request - the request, its body already read.
   * @param abort - lets an injected delay end early when the client gives up.
   * @returns the response to write, or `{ drop: true }` to drop the connection.
   * @example
   * ```ts
   * const result = await server.handle({ method: 'GET', path: '/v1/teams/', search: '', headers: { authorization: `Bearer ${server.keys.valid}` } });
   * if (!result.drop) console.log(result.response.status, JSON.parse(result.response.body));
   * ```
   */
  handle(request: MockRequest, abort?: ClientAbort): Promise<EngineResult>;
  /**
   * Back to the initial data (every record change undone), keys, quotas and clock (its initial time, running
   * or frozen); no armed faults, empty request and change journals and list of unmatched requests (those
   * `onUnmatchedRequest: 'error'` has still to report stay: the next `verify` or `close` reports them); the options' latency profile and fault
   * rates, their streams started again; the options' activity, its schedule started again from the clock's
   * initial time.
   */
  reset(): void;
  /**
   * Creates an API key.
   *
   * @param options - company, name, explicit value, expiry, permissions and own quota.
   * @returns the key value.
   * @throws Error for an unknown company or a duplicate value.
   */
  createKey(options?: KeyOptions): string;
  /**
   * Revokes a key: the very next request with it gets 401 `Invalid API key.`.
   *
   * @param value - the key value.
   * @throws Error when no key has this value.
   */
  revokeKey(value: string): void;
  /**
   * Expires a key now: the very next request with it gets 401 `API key has expired.`.
   *
   * @param value - the key value.
   * @throws Error when no key has this value.
   */
  expireKey(value: string): void;
  /**
   * Replaces the default quota of keys without their own (and forgets current windows).
   *
   * @param quota - the quota, or false for none.
   * @throws RangeError naming `requests` or `perSeconds` when one is out of bounds.
   * @example
   * ```ts
   * server.setQuota({ requests: 100, perSeconds: 60 });
   * ```
   */
  setQuota(quota: QuotaInput | false): void;
  /**
   * The old name of {@link MockServer.setQuota}, with a deprecation warning, until the next minor release.
   *
   * @deprecated Use {@link MockServer.setQuota}.
   * @param quota - the quota, or false for none.
   */
  setThrottle(quota: QuotaInput | false): void;
  /**
   * Gives one key its own quota (and forgets its current window); the others keep theirs.
   *
   * @param value - the key value.
   * @param quota - the quota, false to never throttle it, or null for the default quota again.
   * @throws Error when no key has this value; RangeError naming `requests` or `perSeconds` when one is out
   * of bounds.
   * @example
   * ```ts
   * server.setKeyQuota(server.keys.valid, { requests: 2, perSeconds: 10 });
   * ```
   */
  setKeyQuota(value: string, quota: QuotaInput | false | null): void;
  /**
   * The old name of {@link MockServer.setKeyQuota}, with a deprecation warning, until the next minor release.
   *
   * @deprecated Use {@link MockServer.setKeyQuota}.
   * @param value - the key value.
   * @param quota - the quota, false to never throttle it, or null for the default quota again.
   */
  setKeyThrottle(value: string, quota: QuotaInput | false | null): void;
  /** Every API key of every company, without values, oldest first. */
  apiKeys(): readonly ApiKeyInfo[];
  /** Every audience and lead source of every company, live and deleted, with their webhook URLs. */
  webhooks(): MockWebhooks;
  /**
   * Arms a fault for the next matching requests.
   *
   * @param fault - what to match and how to fail.
   * @throws RangeError for invalid `times`, `delayMs` or `status`.
   */
  injectFault(fault: FaultSpec): void;
  /**
   * The faults armed for the next matching requests ({@link MockServer.injectFault}), in the order they are
   * matched, each with the requests it has still to fail; a fault that has failed its last leaves the list.
   *
   * @example
   * ```ts
   * server.injectFault({ method: 'GET', path: '/v1/calls/', status: 503 });
   * console.log(server.armedFaults().map((fault) => `${fault.status} ×${fault.remaining}`)); // → ['503 ×1']
   * ```
   */
  armedFaults(): readonly ArmedFaultInfo[];
  /**
   * The fault rates in force, as {@link MockServer.setFaultRate} (or the `faultRate` option) set them, or
   * false for none.
   *
   * @example
   * ```ts
   * server.setFaultRate({ rate: 0.05 });
   * console.log(server.faultRates()); // → { rate: 0.05 }
   * ```
   */
  faultRates(): FaultRates | false;
  /**
   * The quotas in force: the default one of keys without their own, and each key's window open now (mock
   * time), with the requests it counted and when it closes.
   *
   * @example
   * ```ts
   * const { windows } = server.quotas();
   * console.log(windows.map((open) => `${open.keyName}: ${open.requests} until ${open.closesAt}`));
   * ```
   */
  quotas(): QuotaReadout;
  /**
   * Sets the latency profile (replacing the one in force), or removes it with false. Its seeded stream of
   * waits starts again from the server's seed, so the same requests then get the same waits.
   *
   * @param latency - one distribution for every request, or rules per route (first match decides).
   * @throws RangeError for a negative wait, `minMs` above `maxMs`, or `p99Ms` below `medianMs`.
   * @example
   * ```ts
   * server.setLatency({ medianMs: 30, p99Ms: 400 });
   * server.setLatency([{ path: /^\/v1\/calls\//, latency: { minMs: 50, maxMs: 200 } }]);
   * ```
   */
  setLatency(latency: LatencyProfile | false): void;
  /**
   * Sets the fault rates (replacing those in force), or removes them with false. Their seeded stream
   * starts again from the server's seed, so the same requests then meet the same faults. Armed next-N
   * faults ({@link MockServer.injectFault}) win over a rate on the requests they match.
   *
   * @param rates - one rate for every request, or rules per route (first match decides).
   * @throws RangeError for a rate outside 0–1, an empty mix, a weight ≤ 0, a cap below 1 or a bad fault.
   * @example
   * ```ts
   * server.setFaultRate({ rate: 0.05 }); // the default mix: 500, 503, an HTML 502, a drop, a cut body
   * server.setFaultRate({ path: '/v1/users/', rate: 0.5, mix: [{ malformedJson: true }], max: 3 });
   * ```
   */
  setFaultRate(rates: FaultRates | false): void;
  /**
   * Changes the activity from now on, or stops it with false. What the clock brought up to now under the
   * previous activity is applied first; then a new schedule starts at now (events the previous one still
   * had to come, such as pending excusals, never happen). `reset()` goes back to the options' activity,
   * from the clock's initial time.
   *
   * @param activity - the rates (absent fields take their defaults), or false for none.
   * @throws RangeError naming a field out of bounds or unknown (the activity in force stays then).
   * @example
   * ```ts
   * server.setActivity({ callsPerMinute: 600, callDeletionsPerHour: 0 });
   * server.clock.advance(60_000); // about 600 calls arrive
   * ```
   */
  setActivity(activity: ActivityOptions | false): void;
  /**
   * The activity in force, every field filled in, or false for none.
   *
   * @example
   * ```ts
   * const activity = server.activity();
   * console.log(activity === false ? 'still' : `${activity.callsPerMinute} calls a minute`);
   * ```
   */
  activity(): ResolvedActivity | false;
  /**
   * Makes the processing of the next `times` leads fail internally (they are still answered 200).
   *
   * @param times - how many leads (default 1).
   * @throws RangeError when `times` is not a positive integer.
   */
  injectLeadFailure(times?: number): void;
  /**
   * Creates, updates, deletes and reads the records of every company: lists, counts and by-id endpoints
   * follow at once, and each change is journaled ({@link MockServer.changes}).
   *
   * @example
   * ```ts
   * const call = server.records.create('calls', { source: 'voice_agent' });
   * server.records.update('calls', call.id, { is_excused: true });
   * ```
   */
  readonly records: RecordControls;
  /**
   * The change journal: every record created, updated or deleted (by a control or the activity) since the
   * last reset, reseed, fixture load or {@link MockServer.clearChanges}, oldest first; the newest
   * `journalLimit` are kept (`journals.changes.stats().dropped` counts the others).
   *
   * @param options - only the changes after a `seq` (`since`), at most `limit` of them.
   * @throws RangeError for a `since` or `limit` that is not a whole number in bounds.
   * @example
   * ```ts
   * server.records.delete('calls', callId);
   * expect(server.changes().at(-1)).toMatchObject({ resource: 'calls', id: callId, kind: 'deleted', origin: 'control' });
   * const newer = server.changes({ since: lastSeq }); // only what came after the change numbered lastSeq
   * ```
   */
  changes(options?: JournalReadOptions): readonly DataChange[];
  /** Forgets the change journal's entries (`seq` starts at 1 again); the records stay as they are. */
  clearChanges(): void;
  /**
   * The requests received, oldest first; the newest `journalLimit` are kept
   * (`journals.requests.stats().dropped` counts the others).
   *
   * @param options - only the requests after a `seq` (`since`), at most `limit` of them.
   * @throws RangeError for a `since` or `limit` that is not a whole number in bounds.
   * @example
   * ```ts
   * const before = server.journals.requests.stats().lastSeq;
   * await client.calls.list();
   * expect(server.journal({ since: before }).map((entry) => entry.path)).toEqual(['/v1/calls/']);
   * ```
   */
  journal(options?: JournalReadOptions): readonly JournalEntry[];
  /** Forgets the journal's entries (`seq` starts at 1 again). */
  clearJournal(): void;
  /** The request and change journals, each read in pages, with what it holds and dropped. */
  readonly journals: MockJournals;
  /**
   * How many records each company holds now (the activity applied first), the primary company first.
   *
   * @example
   * ```ts
   * server.clock.advance(60 * 60_000);
   * console.log(server.recordCounts()[0]?.calls);
   * ```
   */
  recordCounts(): readonly RecordCounts[];
  /**
   * Checks that the journal holds the requests a pattern describes, as many as its `times` says (at least
   * one by default), WireMock's `verify` in one call. When it does not, it throws a
   * {@link VerificationError} whose message lists the closest requests received and how each differs (the
   * method, the path, a query parameter, a header, the key, a place in the body), and how many matched.
   * Under `onUnmatchedRequest: 'error'` it also throws when the mock could not match a request since the
   * last report, listing those.
   *
   * @param pattern - which requests, and how many (see {@link RequestPattern}); none: any request, at least once.
   * @returns what was found, when it is what the pattern asks.
   * @throws VerificationError when the count is not what `times` asks, or unmatched requests are to be
   * reported; VerifyPatternError for a pattern it cannot use (naming the field and how to fix it); Error
   * when the journal is off (`journalLimit: 0`).
   * @example
   * ```ts
   * await client.audiences.addMember(mock.tokens.audience, { first_name: 'Ada', email: 'ada@example.com' });
   * mock.verify({
   *   method: 'POST',
   *   path: '/v1/outbound-campaigns/webhook/{token}/',
   *   body: { first_name: 'Ada' },
   *   times: 1,
   * });
   * ```
   */
  verify(pattern?: RequestPattern): VerifyResult;
  /**
   * The requests the mock could not match to an operation or authenticate (an unknown path or method, a
   * missing, unknown, revoked or expired key, an unknown webhook token), oldest first, each with why; the
   * newest `UNMATCHED_LIMIT` kept. They are in the journal too, answered as the API answers them.
   *
   * @example
   * ```ts
   * expect(mock.unmatched()).toEqual([]);
   * ```
   */
  unmatched(): readonly UnmatchedRequest[];
  /**
   * Forgets the unmatched requests, and those still to report under `onUnmatchedRequest: 'error'`.
   *
   * @example
   * ```ts
   * mock.clearUnmatched(); // e.g. after a test that sends a bad key on purpose
   * ```
   */
  clearUnmatched(): void;
  /**
   * Replaces the data, keys and tokens with a fixture's (clock, quota, faults and request journal stay;
   * the change journal empties; the activity in force starts a new schedule from now).
   * The fixture becomes what {@link MockServer.reset} returns to.
   *
   * @param fixture - the fixture, e.g. parsed from a JSON file; validated first.
   * @throws FixtureError naming the path of the bad field; nothing is loaded then.
   */
  loadFixture(fixture: unknown): void;
  /**
   * Replaces the data, keys and tokens with generated ones (clock, quota, faults and request journal
   * stay; the change journal empties; the activity in force starts a new schedule from now, from the new seed).
   *
   * @param options - seed (default: the current one) and sizes (default: the defaults).
   * @throws RangeError for invalid sizes.
   */
  reseed(options?: { seed?: number; sizes?: MockSizes }): void;
  /**
   * The members of an audience, in the order they were added.
   *
   * @param audienceToken - the audience's webhook token.
   * @throws Error when no audience has this token.
   */
  members(audienceToken: string): readonly AudienceMember[];
  /**
   * Saves this world's state: its options, clock, record changes on top of the seeded data (including
   * what the activity did), the activity's place in its schedule, keys, quotas, latency and fault rates,
   * audiences, lead sources, leads, pending lead failures and the place of its seeded stream of ids. Plain
   * JSON-ready data, and small: the seeded records are never repeated. `createMockServer({ state })` makes
   * the same world again: the same list and detail bodies, byte for byte, the same keys working, and, as the
   * clock moves, the same activity and the same ids created. What the clock brought is applied first.
   * Not saved: armed one-shot faults ({@link MockServer.injectFault}), the request and change journals and
   * the unmatched requests.
   *
   * @returns the state (see {@link MockState}), version 1.
   * @example
   * ```ts
   * const state = server.saveState();
   * writeFileSync('failing-world.json', JSON.stringify(state));
   * const again = createMockServer({ state: JSON.parse(readFileSync('failing-world.json', 'utf8')) });
   * ```
   */
  saveState(): MockState;
  /** The conversations started by leads, each with its leads. */
  conversations(): readonly Conversation[];
  /** Every lead received, including those whose processing failed. */
  leads(): readonly Lead[];
  /**
   * The server's sessions: isolated worlds in this one server, each with its own data, keys, tokens, clock,
   * quota, faults, latency, activity and journals. A request reaches a session by its API key, webhook
   * token or admin token, so a client needs no other URL; what no session holds reaches the server's own
   * world, the default session.
   *
   * @example
   * ```ts
   * const session = server.sessions.create({ seed: 7, clock: 'frozen' });
   * const client = new CompanyData({ apiKey: session.keys.valid, baseURL: server.baseURL });
   * await session.close();
   * ```
   */
  readonly sessions: MockSessions;
  /**
   * Stops the listener, if any, and the dispatcher, and ends every session; idempotent. Under
   * `onUnmatchedRequest: 'error'`, it then rejects with an {@link UnmatchedRequestError} when requests the
   * mock could not match are still to be reported (no `verify` reported them); the next call resolves.
   */
  close(): Promise<void>;
}

/**
 * One isolated world of a server ({@link MockServer.sessions}): every control of a server, on its own data,
 * keys, tokens, clock, quota, faults, latency, activity and journals. It answers on its server's address;
 * its keys, tokens and admin token route requests to it. `close()` ends it, as {@link MockSession.end} does.
 *
 * @example
 * ```ts
 * const session = server.sessions.create({ clock: 'frozen' });
 * session.records.delete('calls', callId); // no other session sees it
 * session.clock.advance(60_000); // nor this
 * await session.close();
 * ```
 */
export interface MockSession extends Omit<MockServer, 'sessions'> {
  /** `s1`, `s2`, … in the order the server made them; `default` for the server's own world. */
  readonly id: string;
  /**
   * Ends the session now: its keys, tokens and admin token reach nothing any more, and its memory is
   * freed once no reference to it is left.
   *
   * @throws SessionRefusedError (409) for the default session, which ends with its server.
   */
  end(): void;
}

/**
 * The sessions of a server ({@link MockServer.sessions}).
 *
 * @example
 * ```ts
 * const session = server.sessions.create({ seed: 3 });
 * server.sessions.list().map((info) => info.id); // ['default', 's1']
 * server.sessions.end(session.id);
 * ```
 */
export interface MockSessions {
  /**
   * Makes a session from options as a server's (its origin, body limit, `onRequest` and
   * `onUnmatchedRequest` are the server's). It takes about as long as `createMockServer`, a fraction of a
   * millisecond with the default sizes.
   *
   * @param options - seed, sizes or fixture, clock, quota, latency, fault rates, activity, journal limit; or
   * a saved `state`, with `copy: true` for a copy of its world that can live beside the one it was saved from.
   * @returns the session, its keys and tokens its own.
   * @throws SessionRefusedError (409) when `maxSessions` are open, or a fixture's key or token (or the
   * admin token given, or a key or token a restored state keeps) is another session's; RangeError for
   * invalid or unknown options, as createMockServer, for one that is the server's (`origin`, …), and for
   * `copy` without `state`.
   */
  create(options?: MockSessionOptions): MockSession;
  /**
   * The open session with this id (`default`: the server's own world).
   *
   * @param id - e.g. `s1`.
   */
  get(id: string): MockSession | undefined;
  /** The default session, then every open session, oldest first. */
  list(): readonly SessionInfo[];
  /**
   * One open session as listed.
   *
   * @param id - e.g. `s1`.
   */
  info(id: string): SessionInfo | undefined;
  /**
   * Ends a session.
   *
   * @param id - e.g. `s1`.
   * @returns whether it was open.
   * @throws SessionRefusedError (409) for `default`, which ends with the server.
   */
  end(id: string): boolean;
  /** How many sessions are open besides the default one. */
  readonly size: number;
}
