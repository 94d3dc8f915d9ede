import { z } from 'zod';
import { API_KEY_PREFIX } from './api-key.js';
import {
  CallList,
  CallResponse,
  CallTranscriptResponse,
  DATA_RESOURCES,
  type EndpointDefinition,
  endpointList,
  RecordingDetailResponse,
  RecordingList,
  RecordingTranscriptResponse,
  TeamList,
  TeamResponse,
  UserList,
  UserResponse,
} from './endpoints.js';
import { rootPath } from './paths.js';
import { BOOLEAN_QUERY_VALUES } from './query-wire.js';
import { MAX_REQUEST_HEAD_BYTES } from './request-limits.js';
import { Pagination } from './schemas/envelopes.js';
import { ApiErrorBody, FlatErrorBody } from './schemas/errors.js';
import {
  Call,
  CallTranscript,
  CallTranscriptSegment,
  CustomField,
  Recording,
  RecordingDetail,
  RecordingTranscript,
  RecordingTranscriptSegment,
  Team,
  TranscriptWord,
  User,
  UserRef,
} from './schemas/resources.js';
import { AudienceMember, AudienceMemberInput, LeadInput, LeadReceived } from './schemas/webhooks.js';

/** The API version the interface description declares. */
export const API_VERSION = '1.0.0';

/** A JSON value, as found in the OpenAPI document. */
export type JsonObject = { [key: string]: unknown };

const namedSchemas: Record<string, z.ZodType> = {
  User,
  Team,
  UserRef,
  Recording,
  CustomField,
  RecordingDetail,
  TranscriptWord,
  RecordingTranscriptSegment,
  RecordingTranscript,
  Call,
  CallTranscriptSegment,
  CallTranscript,
  Pagination,
  UserList,
  UserResponse,
  TeamList,
  TeamResponse,
  RecordingList,
  RecordingDetailResponse,
  RecordingTranscriptResponse,
  CallList,
  CallResponse,
  CallTranscriptResponse,
  AudienceMember,
  AudienceMemberInput,
  LeadInput,
  LeadReceived,
  ApiErrorBody,
  FlatErrorBody,
};

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  401: 'Missing, invalid or expired API key',
  403: 'The API key lacks permission for this resource',
  404: 'Not found',
  413: 'Request body too large',
  415: 'Request body is not JSON',
  429: 'Throttled; wait the number of seconds given in Retry-After',
};

function buildComponents() {
  const registry = z.registry<{ id: string }>();
  const ids = new Map<z.ZodType, string>();
  for (const [id, schema] of Object.entries(namedSchemas)) {
    registry.add(schema, { id });
    ids.set(schema, id);
  }
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    uri: (id) => `#/components/schemas/${id}`,
    unrepresentable: 'any',
  }) as { schemas: Record<string, JsonObject> };
  for (const schema of Object.values(schemas)) {
    delete schema.$schema;
    delete schema.$id;
  }
  return { schemas, ids };
}

function ref(ids: Map<z.ZodType, string>, schema: z.ZodType): JsonObject {
  const id = ids.get(schema);
  if (id === undefined) throw new Error('Every endpoint schema must be a named component');
  return { $ref: `#/components/schemas/${id}` };
}

function inlineSchema(schema: z.ZodType): JsonObject {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' }) as JsonObject;
  delete json.$schema;
  return json;
}

function parameters(endpoint: EndpointDefinition): JsonObject[] {
  const result: JsonObject[] = [];
  const add = (location: 'path' | 'query', shape: Record<string, z.ZodType>) => {
    for (const [name, schema] of Object.entries(shape)) {
      const json = inlineSchema(schema);
      const { description: own, ...rest } = json;
      // OpenAPI's `type: boolean` says true or false; the API reads more spellings, and says so.
      const description =
        rest.type === 'boolean' ? `${own ?? ''} Accepted values: ${BOOLEAN_QUERY_VALUES}.`.trim() : own;
      result.push({
        name,
        in: location,
        required: location === 'path' || !schema.safeParse(undefined).success,
        ...(description === undefined ? {} : { description }),
        schema: rest,
      });
    }
  };
  add('path', endpoint.pathParams.shape as Record<string, z.ZodType>);
  if (endpoint.query) add('query', endpoint.query.shape as Record<string, z.ZodType>);
  return result;
}

function responses(endpoint: EndpointDefinition, ids: Map<z.ZodType, string>): JsonObject {
  const json = (schema: JsonObject) => ({ 'application/json': { schema } });
  const result: JsonObject = {};
  for (const status of endpoint.successStatuses) {
    const description = endpoint.statusText?.[status] ?? STATUS_TEXT[status] ?? 'Success';
    result[status] = { description, content: json(ref(ids, endpoint.response)) };
  }
  const errorSchema = endpoint.errorShape === 'flat' ? FlatErrorBody : ApiErrorBody;
  for (const status of endpoint.errors) {
    const response: JsonObject = {
      description:
        endpoint.statusText?.[status] ??
        (status === 400 ? badRequestText(endpoint) : (STATUS_TEXT[status] ?? 'Error')),
      content: json(ref(ids, errorSchema)),
    };
    if (status === 429) {
      response.headers = {
        'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
      };
    }
    result[status] = response;
  }
  // Any operation's request can be too large to read at all: answered before the endpoint sees it.
  result[431] = {
    description: `Request header fields too large: the request line and headers exceed ${MAX_REQUEST_HEAD_BYTES / 1024} KiB (${MAX_REQUEST_HEAD_BYTES} bytes), e.g. a query string that long. Answered before the request is read, with no body; shorten the request.`,
  };
  // Any operation can meet a server error, or an error page from a proxy in front of the API; the mock
  // server answers them when a fault asks (its default fault mix: 500, 503 and an HTML 502).
  result['5XX'] = {
    description:
      'A server error, or the error page of a proxy in front of the API: the body may be JSON, HTML or anything else. Retry it.',
  };
  return result;
}

/** What makes this operation's request a 400: its own inputs only (a webhook ignores query strings, a GET has no body). */
function badRequestText(endpoint: EndpointDefinition): string {
  if (endpoint.body)
    return 'Bad request: the body is not valid (a field is missing or invalid); query parameters are ignored';
  return endpoint.query
    ? 'Bad request: an unknown, repeated or invalid query parameter'
    : 'Bad request: a query parameter (this endpoint takes none)';
}

/** Every GET answers HEAD too: RFC 9110 asks general-purpose servers to. */
const HEAD_TEXT =
  'HEAD on this path is answered as GET is (the same status and headers, Content-Length included), without the body.';

/**
 * Generates the OpenAPI 3.1 document of the API from the endpoint table. Paths are relative to
 * `{api_root}` so the lead webhook can sit outside `/v1`.
 *
 * @returns a fresh OpenAPI 3.1 document object.
 * @example
 * ```ts
 * import { writeFileSync } from 'node:fs';
 * writeFileSync('openapi.json', JSON.stringify(buildOpenApiDocument(), null, 2));
 * ```
 */
export function buildOpenApiDocument(): JsonObject {
  const { schemas, ids } = buildComponents();
  const paths: Record<string, JsonObject> = {};
  for (const endpoint of endpointList) {
    const operation: JsonObject = {
      operationId: endpoint.operationId,
      summary: endpoint.summary,
      ...(endpoint.method === 'GET' ? { description: HEAD_TEXT } : {}),
      tags: [endpoint.resource ?? 'webhooks'],
      security: endpoint.auth === 'apiKey' ? [{ apiKey: [] }] : [],
      parameters: parameters(endpoint),
      responses: responses(endpoint, ids),
    };
    if (endpoint.body) {
      operation.requestBody = {
        required: true,
        content: { 'application/json': { schema: ref(ids, endpoint.body) } },
      };
    }
    const path = rootPath(endpoint);
    paths[path] = { ...paths[path], [endpoint.method.toLowerCase()]: operation };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Company Data API',
      version: API_VERSION,
      description:
        'Read-only access to one company’s users, teams, field recordings and calls, plus two inbound webhooks.',
    },
    servers: [
      {
        url: '{api_root}',
        description: 'The API root: the base URL without its trailing /v1.',
        variables: { api_root: { default: 'http://127.0.0.1:4010' } },
      },
    ],
    tags: [...DATA_RESOURCES, 'webhooks'].map((name) => ({ name })),
    paths,
    components: {
      schemas,
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: `An API key (\`${API_KEY_PREFIX}…\`) scoped to one company.`,
        },
      },
    },
  };
}
