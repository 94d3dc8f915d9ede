import { timingSafeEqual } from 'node:crypto';
import { closestName, DATA_RESOURCES, type DataResource } from '@company-data/contract';
import { z } from 'zod';
import { clockReading } from '../../data/clock.js';
import { warnDeprecated } from '../../data/deprecation.js';
import { FixtureError } from '../../data/fixture/error.js';
import { readOptionsFromQuery } from '../../data/journal/limits.js';
import { RecordNotFoundError } from '../../data/record-controls/errors.js';
import { QuotaOrNoneSchema } from '../../data/store/quota.js';
import { VerificationError, type VerifyResult } from '../../inspect/verify/recorded-requests.js';
import type { SideRoute, StreamedAnswer } from '../../serve/engine/engine.js';
import { FAULT_ACTION_FIELDS, FAULT_TIMES, faultRateFields } from '../../serve/engine/faults.js';
import { LatencyDistributionSchema } from '../../serve/engine/latency.js';
import { Router, type RouterRow } from '../../serve/engine/router.js';
import { bearerToken } from '../../serve/http/bearer.js';
import { readJsonBody } from '../../serve/http/body.js';
import { EVENT_STREAM_HEADERS } from '../../serve/http/event-stream.js';
import { ADMIN_PREFIX, ADMIN_TOKEN_SEGMENT } from '../../serve/http/reserved-paths.js';
import { errorJson, json, methodNotAllowed, notFound } from '../../serve/http/responses.js';
import type { MockRequest, MockResponse } from '../../serve/http/types.js';
import type { MockServer, MockSession } from '../mock-server.js';
import { MockSizesSchema } from '../options.js';
import { type MockSessionOptions, SessionRefusedError } from '../sessions/session-rules.js';
import { faultRatesToJson, ruleToJson } from '../state/routes.js';
import type { LiveFeed } from '../world/live-feed.js';
import { describeServer } from './summary.js';
import { UI_ROUTER } from './ui/assets.js';

/**
 * The 401 of the admin API, saying where its token is printed: the CLI's banner (the Admin API line) and
 * its `--json` summary (`adminToken`); `mock.adminToken` in code. It is random unless given.
 */
const INVALID_ADMIN_TOKEN =
  'Invalid admin token. Send `Authorization: Bearer <admin token>`: company-data-mock prints it at start (the Admin API line of its banner; `adminToken` with --json), and in code it is `mock.adminToken`; random unless set with --admin-token or the adminToken option.';

/** What the admin API drives: a mock server's (or a session's) controls, and its watch page's events. */
export type AdminTarget = Pick<MockSession, 'id'> & { readonly live: LiveFeed } & Pick<
    MockServer,
    | 'baseURL'
    | 'apiRoot'
    | 'keys'
    | 'tokens'
    | 'adminToken'
    | 'clock'
    | 'reset'
    | 'createKey'
    | 'revokeKey'
    | 'expireKey'
    | 'setQuota'
    | 'setKeyQuota'
    | 'apiKeys'
    | 'webhooks'
    | 'injectFault'
    | 'armedFaults'
    | 'faultRates'
    | 'quotas'
    | 'setLatency'
    | 'setFaultRate'
    | 'injectLeadFailure'
    | 'journal'
    | 'clearJournal'
    | 'journals'
    | 'recordCounts'
    | 'members'
    | 'conversations'
    | 'leads'
    | 'loadFixture'
    | 'reseed'
    | 'records'
    | 'changes'
    | 'clearChanges'
    | 'setActivity'
    | 'activity'
    | 'verify'
    | 'unmatched'
    | 'clearUnmatched'
    | 'sessions'
    | 'saveState'
  >;

const Time = z.union([z.string(), z.number()]);
/** Which requests a rule matches; `pathPattern` is a RegExp source (JSON has no RegExp). */
const Route = {
  method: z.string().optional(),
  path: z.string().optional(),
  pathPattern: z.string().optional(),
};
const FaultRate = z.strictObject({ ...Route, ...faultRateFields(z.strictObject) });
const Latency = z.union([
  z.literal(false),
  LatencyDistributionSchema,
  z.array(z.strictObject({ ...Route, latency: LatencyDistributionSchema })),
]);
const FaultRates = z.union([z.literal(false), FaultRate, z.array(FaultRate)]);
const Bodies = {
  advance: z.strictObject({ ms: z.number().nonnegative() }),
  set: z.strictObject({ time: Time }),
  key: z.strictObject({
    company: z.string().optional(),
    name: z.string().optional(),
    value: z.string().optional(),
    expiresAt: Time.nullable().optional(),
    permissions: z.array(z.enum(DATA_RESOURCES)).optional(),
    quota: QuotaOrNoneSchema.optional(),
    /** Deprecated: the old name of `quota` (createKey warns). */
    throttle: QuotaOrNoneSchema.optional(),
  }),
  keyValue: z.strictObject({ value: z.string() }),
  keyQuota: z.strictObject({ value: z.string(), quota: QuotaOrNoneSchema.nullable() }),
  /** Deprecated: `POST keys/throttle`'s body. */
  keyThrottle: z.strictObject({ value: z.string(), throttle: QuotaOrNoneSchema.nullable() }),
  quota: QuotaOrNoneSchema,
  fault: z.strictObject({ ...Route, times: FAULT_TIMES, ...FAULT_ACTION_FIELDS }),
  latency: Latency,
  faultRate: FaultRates,
  leadFailure: z.strictObject({ times: z.int().positive().optional() }),
  seed: z.strictObject({
    seed: z.int().optional(),
    sizes: MockSizesSchema.optional(),
  }),
  /** A session's options; its fixture and activity are checked by the session itself, with their own messages. */
  session: z.strictObject({
    seed: z.int().optional(),
    sizes: MockSizesSchema.optional(),
    fixture: z.unknown().optional(),
    now: Time.optional(),
    clock: z.enum(['running', 'frozen']).optional(),
    quota: QuotaOrNoneSchema.optional(),
    latency: Latency.optional(),
    faultRate: FaultRates.optional(),
    activity: z.unknown().optional(),
    journalLimit: z.int().nonnegative().optional(),
    adminToken: z.string().min(1).optional(),
    /** A saved state (`GET state`), checked by the session itself. */
    state: z.unknown().optional(),
    /** With `state`: a copy of its world, with keys and tokens of its own (alone, the session refuses it). */
    copy: z.boolean().optional(),
  }),
} as const;

/** A session's options from the admin API's body: its rules' `pathPattern` read as RegExps. */
function sessionOptions(body: unknown): MockSessionOptions {
  const { latency, faultRate, ...options } = parse(Bodies.session, body);
  // The fixture and the activity are read as unknown here: the session checks them, with their own messages.
  const session = options as MockSessionOptions;
  if (latency !== undefined && latency !== false)
    session.latency = Array.isArray(latency) ? latency.map(routed) : latency;
  if (faultRate !== undefined && faultRate !== false)
    session.faultRate = Array.isArray(faultRate) ? faultRate.map(routed) : routed(faultRate);
  return session;
}

/** A session as the admin API answers its creation: its id and admin token, then what `GET /__admin/` says of it. */
function sessionSummary(target: AdminTarget, session: MockSession) {
  const { id, ...described } = describeServer(session, session.id);
  return {
    id,
    adminToken: session.adminToken,
    idleEndsAt: target.sessions.info(id)?.idleEndsAt ?? null,
    ...described,
  };
}

/** The session a `sessions/{id}` path names, or a 404 that says which. */
function requireSession(target: AdminTarget, id: string) {
  const info = target.sessions.info(id);
  if (info === undefined)
    throw new SessionRefusedError(
      404,
      `No session has id "${id}": it ended, or never was (GET ${ADMIN_PREFIX}sessions lists them)`,
    );
  return info;
}

/**
 * An admin action: the server, the body (`{}` when none), the path's `{name}` segments decoded, the query and
 * the request itself; its answer, or a stream of events.
 */
type Action = (
  target: AdminTarget,
  body: unknown,
  params: Readonly<Record<string, string>>,
  query: URLSearchParams,
  request: MockRequest,
) => MockResponse | StreamedAnswer;

/** A route of the admin API: a row of the mock's one router, as the API's operations are. */
interface AdminRoute extends RouterRow {
  readonly action: Action;
}

class AdminInputError extends Error {}

function parse<Schema extends z.ZodType>(schema: Schema, body: unknown): z.output<Schema> {
  const result = schema.safeParse(body);
  if (!result.success) {
    const issue = result.error.issues[0];
    const path = issue?.path.map(String).join('.');
    throw new AdminInputError(path ? `${path}: ${issue?.message}` : (issue?.message ?? 'Invalid body'));
  }
  return result.data;
}

/** A rule whose `pathPattern` (a RegExp source) becomes its `path`. */
function routed<Rule extends { path?: string | undefined; pathPattern?: string | undefined }>({
  pathPattern,
  ...rule
}: Rule): Omit<Rule, 'pathPattern' | 'path'> & { path?: string | RegExp | undefined } {
  if (pathPattern === undefined) return rule as Omit<Rule, 'pathPattern' | 'path'>;
  if (rule.path !== undefined) throw new AdminInputError('Give path or pathPattern, not both');
  return { ...(rule as Omit<Rule, 'pathPattern' | 'path'>), path: new RegExp(pathPattern) };
}

/** Methods whose body the admin API reads. */
const BODY_METHODS = new Set(['POST', 'PATCH']);

/** A path's resource segment as a data resource. */
function dataResource(name: string): DataResource {
  if ((DATA_RESOURCES as readonly string[]).includes(name)) return name as DataResource;
  const closest = closestName(name, DATA_RESOURCES);
  throw new AdminInputError(
    `Unknown resource "${name}"${closest ? ` (did you mean "${closest}"?)` : ''}; one of ${DATA_RESOURCES.join(', ')}`,
  );
}

/** The `?company=` of a record control (id or name). */
function recordOptions(query: URLSearchParams): { company?: string } {
  const company = query.get('company');
  return company === null ? {} : { company };
}

const ok = (value: unknown = { ok: true }, status = 200) => json(status, value);
const info = (target: AdminTarget) => describeServer(target, target.id);
const clock = (target: AdminTarget) => clockReading(target.clock);

/** A row of the admin API: `path` is relative to {@link ADMIN_PREFIX}, without a final slash. */
const route = (method: string, path: string, action: Action): AdminRoute => ({
  method,
  template: `${ADMIN_PREFIX}${path}`,
  action,
});

/** The record a `records/{resource}/{id}` path names, or a 404 that says which. */
function requireRecord(
  target: AdminTarget,
  params: Readonly<Record<string, string>>,
  query: URLSearchParams,
) {
  const { resource = '', id = '' } = params;
  const record = target.records.get(dataResource(resource), id, recordOptions(query));
  if (record === undefined) throw new RecordNotFoundError(`No record of ${resource} has id "${id}"`);
  return record;
}

/** The admin routes, rows of the mock's one router (matched with the final slash of a path taken off). */
const ROUTER = new Router<AdminRoute>([
  route('GET', '', (target) => ok(info(target))),
  route('GET', 'clock', (target) => ok(clock(target))),
  route('POST', 'clock/advance', (target, body) => {
    target.clock.advance(parse(Bodies.advance, body).ms);
    return ok(clock(target));
  }),
  route('POST', 'clock/set', (target, body) => {
    target.clock.set(parse(Bodies.set, body).time);
    return ok(clock(target));
  }),
  route('POST', 'clock/freeze', (target) => {
    target.clock.freeze();
    return ok(clock(target));
  }),
  route('POST', 'clock/resume', (target) => {
    target.clock.resume();
    return ok(clock(target));
  }),
  route('POST', 'reset', (target) => {
    target.reset();
    return ok(info(target));
  }),
  route('POST', 'fixture', (target, body) => {
    target.loadFixture(body);
    return ok(info(target));
  }),
  route('POST', 'seed', (target, body) => {
    target.reseed(parse(Bodies.seed, body));
    return ok(info(target));
  }),
  route('GET', 'keys', (target) => ok({ data: target.apiKeys() })),
  route('POST', 'keys', (target, body) => ok({ value: target.createKey(parse(Bodies.key, body)) }, 201)),
  route('POST', 'keys/quota', (target, body) => {
    const { value, quota } = parse(Bodies.keyQuota, body);
    target.setKeyQuota(value, quota);
    return ok();
  }),
  route('POST', 'keys/throttle', (target, body) => {
    warnDeprecated(`the admin API's POST ${ADMIN_PREFIX}keys/throttle`, `POST ${ADMIN_PREFIX}keys/quota`);
    const { value, throttle } = parse(Bodies.keyThrottle, body);
    target.setKeyQuota(value, throttle);
    return ok();
  }),
  route('POST', 'keys/revoke', (target, body) => {
    target.revokeKey(parse(Bodies.keyValue, body).value);
    return ok();
  }),
  route('POST', 'keys/expire', (target, body) => {
    target.expireKey(parse(Bodies.keyValue, body).value);
    return ok();
  }),
  route('POST', 'quota', (target, body) => {
    target.setQuota(parse(Bodies.quota, body));
    return ok();
  }),
  route('POST', 'throttle', (target, body) => {
    warnDeprecated(`the admin API's POST ${ADMIN_PREFIX}throttle`, `POST ${ADMIN_PREFIX}quota`);
    target.setQuota(parse(Bodies.quota, body));
    return ok();
  }),
  route('POST', 'faults', (target, body) => {
    target.injectFault(routed(parse(Bodies.fault, body)));
    return ok(undefined, 201);
  }),
  route('GET', 'faults', (target) => ok({ data: target.armedFaults().map((fault) => ruleToJson(fault)) })),
  route('GET', 'fault-rate', (target) => {
    const rates = target.faultRates();
    return ok({ data: rates === false ? false : faultRatesToJson(rates) });
  }),
  route('GET', 'quota', (target) => ok({ data: target.quotas() })),
  // The watch page's events: a stream that stays open (HEAD gets its head alone).
  route('GET', 'events', (target, _body, _params, _query, request) => {
    const response = { status: 200, headers: EVENT_STREAM_HEADERS, body: '' };
    return request.method === 'HEAD' ? response : { response, stream: target.live.body() };
  }),
  route('POST', 'latency', (target, body) => {
    const latency = parse(Bodies.latency, body);
    target.setLatency(Array.isArray(latency) ? latency.map(routed) : latency);
    return ok();
  }),
  route('POST', 'fault-rate', (target, body) => {
    const rates = parse(Bodies.faultRate, body);
    target.setFaultRate(rates === false ? false : Array.isArray(rates) ? rates.map(routed) : routed(rates));
    return ok();
  }),
  route('POST', 'leads/fail', (target, body) => {
    target.injectLeadFailure(parse(Bodies.leadFailure, body).times);
    return ok();
  }),
  route('GET', 'activity', (target) => ok({ data: target.activity() })),
  // The body is checked by the activity's own schema (in setActivity): the same messages as in-process.
  route('POST', 'activity', (target, body) => {
    target.setActivity(body as Parameters<AdminTarget['setActivity']>[0]);
    return ok({ data: target.activity() });
  }),
  // A page of the journal: `?since=<seq>&limit=<n>`, each optional (a bad one is a 400 saying what it must be).
  route('GET', 'journal', (target, _body, _params, query) =>
    ok(target.journals.requests.read(readOptionsFromQuery(query))),
  ),
  route('DELETE', 'journal', (target) => {
    target.clearJournal();
    return ok();
  }),
  route('GET', 'webhooks', (target) => ok(target.webhooks())),
  route('POST', 'records/{resource}', (target, body, { resource = '' }, query) =>
    ok({ data: target.records.create(dataResource(resource), body as never, recordOptions(query)) }, 201),
  ),
  route('GET', 'records/{resource}/{id}', (target, _body, params, query) =>
    ok({ data: requireRecord(target, params, query) }),
  ),
  route('PATCH', 'records/{resource}/{id}', (target, body, { resource = '', id = '' }, query) =>
    ok({ data: target.records.update(dataResource(resource), id, body as never, recordOptions(query)) }),
  ),
  route('DELETE', 'records/{resource}/{id}', (target, _body, { resource = '', id = '' }, query) => {
    target.records.delete(dataResource(resource), id, recordOptions(query));
    return ok();
  }),
  route('GET', 'changes', (target, _body, _params, query) =>
    ok(target.journals.changes.read(readOptionsFromQuery(query))),
  ),
  route('DELETE', 'changes', (target) => {
    target.clearChanges();
    return ok();
  }),
  route('GET', `${ADMIN_TOKEN_SEGMENT}/{token}/members`, (target, _body, { token = '' }) =>
    ok({ data: target.members(token) }),
  ),
  route('GET', 'conversations', (target) => ok({ data: target.conversations() })),
  route('GET', 'leads', (target) => ok({ data: target.leads() })),
  // The body is the pattern, checked by verify itself: the same messages as in-process (a bad one is a 400).
  route('POST', 'verify', (target, body) => ok(verified(target, body))),
  route('GET', 'unmatched', (target) => ok({ data: target.unmatched() })),
  route('POST', 'sessions', (target, body) =>
    ok(sessionSummary(target, target.sessions.create(sessionOptions(body))), 201),
  ),
  route('GET', 'sessions', (target) => ok({ data: target.sessions.list() })),
  route('GET', 'state', (target) => ok(target.saveState())),
  // With its admin token, which the server's admin token may read (as `sessions.get(id).adminToken` in code):
  // the watch page reaches a session with it.
  route('GET', 'sessions/{id}', (target, _body, { id = '' }) => {
    const data = requireSession(target, id);
    return ok({ data: { ...data, adminToken: target.sessions.get(id)?.adminToken } });
  }),
  route('DELETE', 'sessions/{id}', (target, _body, { id = '' }) => {
    requireSession(target, id);
    target.sessions.end(id);
    return ok();
  }),
  route('DELETE', 'unmatched', (target) => {
    target.clearUnmatched();
    return ok();
  }),
]);

/** What `verify` found, whether or not it passed: over HTTP a failed verification is an answer, not an error. */
function verified(target: AdminTarget, pattern: unknown): VerifyResult {
  try {
    return target.verify(pattern as Parameters<AdminTarget['verify']>[0]);
  } catch (error) {
    if (error instanceof VerificationError) return error.result;
    throw error;
  }
}

/**
 * The admin API as a route the server hands the engine: every path under {@link ADMIN_PREFIX}.
 *
 * @param target - the server.
 * @param maxBodyBytes - request body limit.
 */
export function adminRoute(target: AdminTarget, maxBodyBytes: number): SideRoute {
  return {
    outcome: 'admin',
    matches: (path) => path.startsWith(ADMIN_PREFIX),
    answer: createAdminApi(target, maxBodyBytes),
  };
}

/**
 * Builds the admin HTTP API handler: every control of the server, under {@link ADMIN_PREFIX},
 * guarded by `Authorization: Bearer <adminToken>`. Answers JSON; errors as every `{error:{detail}}` of the mock.
 *
 * @param target - the server.
 * @param maxBodyBytes - request body limit.
 * @returns the handler.
 */
export function createAdminApi(
  target: AdminTarget,
  maxBodyBytes: number,
): (request: MockRequest) => MockResponse | StreamedAnswer {
  const expected = Buffer.from(target.adminToken);
  // The token is read as every API key is (any letter case of `Bearer`), then compared in constant time.
  const authorized = (header: string | undefined) => {
    const token = bearerToken(header);
    if (token === undefined) return false;
    const given = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  return (request) => {
    try {
      return answer(request);
    } catch (caught) {
      if (caught instanceof RecordNotFoundError) return errorJson(404, caught.message);
      if (caught instanceof SessionRefusedError) return errorJson(caught.status, caught.message);
      if (caught instanceof FixtureError)
        return errorJson(400, caught.message, { extra: { issues: caught.issues } });
      return errorJson(400, caught instanceof Error ? caught.message : String(caught));
    }
  };

  function answer(request: MockRequest): MockResponse | StreamedAnswer {
    // The admin API answers its paths with or without a final slash (its root always has one).
    const path =
      request.path.endsWith('/') && request.path !== ADMIN_PREFIX ? request.path.slice(0, -1) : request.path;
    // The watch page's files are static and hold nothing of the world: no token to load them (their every
    // request for data bears the token).
    const page = UI_ROUTER.find(request.method, path);
    if (page.kind === 'match') return page.row.response;
    if (page.kind === 'method') return methodNotAllowed('nested', request.method, page.allow).response;
    if (!authorized(request.headers.authorization)) return errorJson(401, INVALID_ADMIN_TOKEN);
    const found = ROUTER.find(request.method, path);
    if (found.kind === 'none') return notFound('nested').response;
    if (found.kind === 'method') return methodNotAllowed('nested', request.method, found.allow).response;
    let body: unknown;
    // An oversize body is refused on any method (readJsonBody answers 413 before anything else).
    if (request.bodyTooLarge || (BODY_METHODS.has(request.method) && request.body !== undefined)) {
      const read = readJsonBody(request, maxBodyBytes);
      if (!read.ok) return errorJson(read.status, read.message);
      body = read.value;
    }
    const answered = found.row.action(
      target,
      body ?? {},
      found.params,
      new URLSearchParams(request.search),
      request,
    );
    // A change made over HTTP (by the page, or a test in another language) tells the watch pages to look again.
    if (request.method !== 'GET' && request.method !== 'HEAD')
      target.live.changed(`${request.method} ${found.row.template.slice(ADMIN_PREFIX.length)}`);
    return answered;
  }
}
