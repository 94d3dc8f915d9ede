import { z } from 'zod';
import type { ErrorShape } from './error-details.js';
import { CallListQuery, ListQuery, UserListQuery } from './query.js';
import { dataEnvelope, listEnvelope } from './schemas/envelopes.js';
import { Uuid } from './schemas/primitives.js';
import {
  Call,
  CallTranscript,
  Recording,
  RecordingDetail,
  RecordingTranscript,
  Team,
  User,
} from './schemas/resources.js';
import { AudienceMember, AudienceMemberInput, LeadInput, LeadReceived } from './schemas/webhooks.js';

/**
 * Where an endpoint's path is appended: `baseURL` is `{base_url}` (ends in `/v1`), `apiRoot` is
 * `{api_root}` (the same address without `/v1`).
 */
export type EndpointBase = 'baseURL' | 'apiRoot';

/** How a request is authenticated: a Bearer API key, or the secret token in the path. */
export type EndpointAuth = 'apiKey' | 'pathToken';

/** What an operation does: read a page of a list, read one record, or post to a webhook. */
export type EndpointKind = 'list' | 'retrieve' | 'webhook';

/**
 * The data resources, which are also the permission scopes of API keys in the mock server
 * (a key may be limited to some of them).
 */
export const DATA_RESOURCES = ['users', 'teams', 'recordings', 'calls'] as const;
/** A data resource, and the permission scope guarding it. */
export type DataResource = (typeof DATA_RESOURCES)[number];

/** One row of the endpoint table. */
export interface EndpointDefinition {
  /** Stable operation name, also the OpenAPI `operationId`. */
  readonly operationId: string;
  /** One-line description. */
  readonly summary: string;
  readonly method: 'GET' | 'POST';
  /** Path template relative to {@link EndpointDefinition.base}, with `{name}` placeholders. */
  readonly path: string;
  /** Which address the path is appended to. */
  readonly base: EndpointBase;
  /** How requests authenticate. */
  readonly auth: EndpointAuth;
  /** What the operation does. */
  readonly kind: EndpointKind;
  /** The data resource read (and permission scope required), for API-key endpoints. */
  readonly resource?: DataResource;
  readonly pathParams: z.ZodObject;
  /** Query parameters (list endpoints). */
  readonly query?: z.ZodObject;
  /** JSON request body (webhooks). */
  readonly body?: z.ZodType;
  /** The whole success body. */
  readonly response: z.ZodType;
  readonly successStatuses: readonly number[];
  /** What a status means for this operation, where the general wording would not say (OpenAPI's response descriptions). */
  readonly statusText?: Readonly<Record<number, string>>;
  /** Error statuses the spec documents for this operation. */
  readonly specErrors: readonly number[];
  /** Every error status the reference implementation may answer (spec plus documented decisions). */
  readonly errors: readonly number[];
  readonly errorShape: ErrorShape;
}

const IdParams = z.object({ id: Uuid.describe('Record id (uuid).') });
const TokenParams = z.object({
  webhook_token: Uuid.describe('Secret webhook token; whoever holds it may post.'),
});
const NoParams = z.object({});

/** Response schemas of the data endpoints, by name. */
export const UserList = listEnvelope(User);
/** `{ data: User }` */
export const UserResponse = dataEnvelope(User);
/** `{ data: Team[], pagination }` */
export const TeamList = listEnvelope(Team);
/** `{ data: Team }` */
export const TeamResponse = dataEnvelope(Team);
/** `{ data: Recording[], pagination }` */
export const RecordingList = listEnvelope(Recording);
/** `{ data: RecordingDetail }` */
export const RecordingDetailResponse = dataEnvelope(RecordingDetail);
/** `{ data: RecordingTranscript }` */
export const RecordingTranscriptResponse = dataEnvelope(RecordingTranscript);
/** `{ data: Call[], pagination }` */
export const CallList = listEnvelope(Call);
/** `{ data: Call }` */
export const CallResponse = dataEnvelope(Call);
/** `{ data: CallTranscript }` */
export const CallTranscriptResponse = dataEnvelope(CallTranscript);

const dataErrors = {
  list: { specErrors: [401, 429], errors: [400, 401, 403, 429] },
  // 400: a by-id endpoint takes no query parameters, and refuses any, as lists refuse unknown ones.
  retrieve: { specErrors: [401, 404], errors: [400, 401, 403, 404, 429] },
} as const;

function list<Resource extends DataResource, Query extends z.ZodObject, Response extends z.ZodType>(
  operationId: string,
  resource: Resource,
  summary: string,
  query: Query,
  response: Response,
) {
  return {
    operationId,
    summary,
    method: 'GET',
    path: `/${resource}/`,
    base: 'baseURL',
    auth: 'apiKey',
    kind: 'list',
    resource,
    pathParams: NoParams,
    query,
    response,
    successStatuses: [200],
    ...dataErrors.list,
    errorShape: 'nested',
  } as const satisfies EndpointDefinition;
}

function retrieve<Resource extends DataResource, Path extends string, Response extends z.ZodType>(
  operationId: string,
  resource: Resource,
  path: Path,
  summary: string,
  response: Response,
  specErrors: readonly number[] = dataErrors.retrieve.specErrors,
) {
  return {
    operationId,
    summary,
    method: 'GET',
    path,
    base: 'baseURL',
    auth: 'apiKey',
    kind: 'retrieve',
    resource,
    pathParams: IdParams,
    response,
    successStatuses: [200],
    specErrors,
    errors: dataErrors.retrieve.errors,
    errorShape: 'nested',
  } as const satisfies EndpointDefinition;
}

/**
 * The endpoint table: all twelve operations of the API. The SDK's resource methods, the mock
 * server's routes, the OpenAPI document and the contract tests are all derived from it.
 *
 * @example
 * ```ts
 * const { method, path, query } = endpoints.listCalls;
 * query.parse({ source: 'voice_agent' });
 * ```
 */
export const endpoints = {
  listUsers: list('listUsers', 'users', 'List users', UserListQuery, UserList),
  retrieveUser: retrieve('retrieveUser', 'users', '/users/{id}/', 'Retrieve a user', UserResponse),
  listTeams: list('listTeams', 'teams', 'List teams', ListQuery, TeamList),
  retrieveTeam: retrieve('retrieveTeam', 'teams', '/teams/{id}/', 'Retrieve a team', TeamResponse),
  listRecordings: list('listRecordings', 'recordings', 'List field recordings', ListQuery, RecordingList),
  retrieveRecording: retrieve(
    'retrieveRecording',
    'recordings',
    '/recordings/{id}/',
    'Retrieve a field recording with its custom fields',
    RecordingDetailResponse,
  ),
  retrieveRecordingTranscript: retrieve(
    'retrieveRecordingTranscript',
    'recordings',
    '/recordings/{id}/transcript/',
    'Retrieve the transcript of a field recording',
    RecordingTranscriptResponse,
    [401, 404, 429],
  ),
  listCalls: list('listCalls', 'calls', 'List calls', CallListQuery, CallList),
  retrieveCall: retrieve('retrieveCall', 'calls', '/calls/{id}/', 'Retrieve a call', CallResponse),
  retrieveCallTranscript: retrieve(
    'retrieveCallTranscript',
    'calls',
    '/calls/{id}/transcript/',
    'Retrieve the transcript of a call',
    CallTranscriptResponse,
  ),
  addAudienceMember: {
    operationId: 'addAudienceMember',
    summary: 'Add a member to an outbound-campaign audience (idempotent by phone or email)',
    method: 'POST',
    path: '/outbound-campaigns/webhook/{webhook_token}/',
    base: 'baseURL',
    auth: 'pathToken',
    kind: 'webhook',
    pathParams: TokenParams,
    body: AudienceMemberInput,
    response: AudienceMember,
    successStatuses: [200, 201],
    statusText: {
      200: 'A member with this phone or email already existed; it is returned',
      201: 'A new member was added',
    },
    specErrors: [],
    errors: [400, 404, 413, 415],
    errorShape: 'nested',
  },
  submitLead: {
    operationId: 'submitLead',
    summary: 'Submit a lead from an external lead source (deduplicated per phone for 15 minutes)',
    method: 'POST',
    path: '/messaging-agent/webhook/{webhook_token}/',
    base: 'apiRoot',
    auth: 'pathToken',
    kind: 'webhook',
    pathParams: TokenParams,
    body: LeadInput,
    response: LeadReceived,
    successStatuses: [200],
    specErrors: [400, 404],
    errors: [400, 404, 413, 415],
    errorShape: 'flat',
  },
} as const satisfies Record<string, EndpointDefinition>;

/** The endpoint table's type. */
export type Endpoints = typeof endpoints;
/** The name of one operation. */
export type OperationId = keyof Endpoints;

/**
 * The endpoint table as a list, in the spec's order.
 *
 * @example
 * ```ts
 * for (const endpoint of endpointList) console.log(endpoint.method, endpoint.path);
 * ```
 */
export const endpointList: readonly EndpointDefinition[] = Object.values(endpoints);

/** The delay after which a lead from the same phone starts a new conversation (15 minutes). */
export const LEAD_DEDUP_WINDOW_MS = 15 * 60 * 1000;
