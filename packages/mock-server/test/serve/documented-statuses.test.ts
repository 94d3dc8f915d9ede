import {
  buildOpenApiDocument,
  type EndpointDefinition,
  endpointList,
  fillPath,
  MAX_REQUEST_HEAD_BYTES,
  rootPath,
} from '@company-data/contract';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FAULT_MIX, type FaultAction, type MockServer, startMockServer } from '../../src/index.js';

// For every operation, provoke each answer the mock server can give it, and check the OpenAPI document
// lists that status for that operation: a client generated from the document, or a contract test such as
// Schemathesis, must never meet an undocumented status.

const document = buildOpenApiDocument();

/** The exact statuses the document lists for an operation (ranges such as `5XX` are in {@link documentedRanges}). */
function documented(endpoint: EndpointDefinition): number[] {
  return responseKeys(endpoint)
    .filter((key) => /^\d+$/.test(key))
    .map(Number);
}

/** The status ranges the document lists for an operation, e.g. `5XX` as 5. */
function documentedRanges(endpoint: EndpointDefinition): number[] {
  return responseKeys(endpoint)
    .filter((key) => /^\dXX$/.test(key))
    .map((key) => Number(key[0]));
}

function responseKeys(endpoint: EndpointDefinition): string[] {
  const paths = document.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>;
  const operation = paths[rootPath(endpoint)]?.[endpoint.method.toLowerCase()];
  return Object.keys(operation?.responses ?? {});
}

const isDocumented = (endpoint: EndpointDefinition, status: number) =>
  documented(endpoint).includes(status) || documentedRanges(endpoint).includes(Math.floor(status / 100));

interface Attempt {
  path?: string;
  search?: string;
  key?: string | null;
  body?: string;
  contentType?: string;
  /** Use up a quota of one request first. */
  quotaUsed?: boolean;
  /** A request head (request line and headers) over the limit, sent over a real socket: the listener's 431. */
  headTooLarge?: boolean;
}

async function statusOf(
  server: MockServer,
  endpoint: EndpointDefinition,
  attempt: Attempt,
  fault?: FaultAction,
): Promise<number> {
  if (fault !== undefined) server.injectFault(fault);
  const headers: Record<string, string> = { 'content-type': attempt.contentType ?? 'application/json' };
  const key = attempt.key === undefined ? server.keys.valid : attempt.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  if (attempt.headTooLarge) headers['x-padding'] = 'x'.repeat(MAX_REQUEST_HEAD_BYTES);
  const path = attempt.path ?? validPath(server, endpoint);
  const response = await request(`${server.apiRoot}${path}${attempt.search ? `?${attempt.search}` : ''}`, {
    method: endpoint.method,
    // In-process, except what only a socket meets.
    ...(attempt.headTooLarge ? {} : { dispatcher: server.dispatcher }),
    headers,
    body:
      endpoint.method === 'POST'
        ? (attempt.body ?? '{"phone_number":"415-555-0100","email":"a@b.co"}')
        : undefined,
  });
  await response.body.dump();
  return response.statusCode;
}

function validPath(server: MockServer, endpoint: EndpointDefinition, id?: string): string {
  const token = endpoint.operationId === 'submitLead' ? server.tokens.lead : server.tokens.audience;
  return fillPath(rootPath(endpoint), {
    id: id ?? firstIds.get(endpoint.resource ?? '') ?? '',
    webhook_token: token,
  });
}

const firstIds = new Map<string, string>();

const DATA_ATTEMPTS: Record<string, Attempt> = {
  'valid request': {},
  'no key': { key: null },
  'unknown key': { key: 'svc_live_unknown' },
  'expired key': { key: 'expired' },
  'no permission': { key: 'noPermissions' },
  'quota used': { quotaUsed: true },
  'bad query parameter': { search: 'page=0' },
  'unknown query parameter': { search: 'pagesize=5' },
  'request head too large': { headTooLarge: true },
};

const WEBHOOK_ATTEMPTS: Record<string, Attempt> = {
  'valid request': {},
  'unknown token': { path: '' },
  'invalid body': { body: '{"phone_number":7,"email":"not an email"}' },
  'malformed JSON': { body: '{' },
  'not JSON': { contentType: 'text/plain' },
  'body too large': { body: JSON.stringify({ notes: 'x'.repeat(2 * 1024 * 1024) }) },
  'request head too large': { headTooLarge: true },
};

describe('every status the mock server answers is documented for its operation', () => {
  it.each(endpointList.map((endpoint) => [endpoint.operationId, endpoint] as const))(
    '%s',
    async (_name, endpoint) => {
      // Listening too, for the statuses only a socket meets (431).
      const server = await startMockServer({ port: 0, clock: 'frozen' });
      try {
        for (const resource of ['users', 'teams', 'recordings', 'calls']) {
          const listed = await request(`${server.baseURL}/${resource}/?page_size=1`, {
            dispatcher: server.dispatcher,
            headers: { authorization: `Bearer ${server.keys.valid}` },
          });
          firstIds.set(
            resource,
            ((await listed.body.json()) as { data: { id: string }[] }).data[0]?.id ?? '',
          );
        }
        const webhook = endpoint.auth === 'pathToken';
        const attempts: Record<string, Attempt> = webhook ? { ...WEBHOOK_ATTEMPTS } : { ...DATA_ATTEMPTS };
        if (webhook) {
          const unknown =
            endpoint.operationId === 'submitLead' ? server.tokens.deletedLead : crypto.randomUUID();
          attempts['unknown token'] = { path: fillPath(rootPath(endpoint), { webhook_token: unknown }) };
        } else if (endpoint.kind === 'retrieve') {
          attempts['unknown id'] = { path: validPath(server, endpoint, crypto.randomUUID()) };
        }
        const seen = new Map<number, string>();
        for (const [name, attempt] of Object.entries(attempts)) {
          const resolved: Attempt = { ...attempt };
          if (attempt.key === 'expired' || attempt.key === 'noPermissions')
            resolved.key = server.keys[attempt.key as 'expired' | 'noPermissions'];
          if (attempt.quotaUsed) {
            server.setKeyQuota(server.keys.valid, { requests: 1, perSeconds: 60 });
            await statusOf(server, endpoint, {});
          }
          seen.set(await statusOf(server, endpoint, resolved), name);
          if (attempt.quotaUsed) server.setKeyQuota(server.keys.valid, null);
        }
        // The faults a fault rate draws by default, and the body faults that answer a status of their own:
        // whatever their bodies, their statuses are documented (as `5XX` for server errors).
        const faults = [
          ...DEFAULT_FAULT_MIX,
          { malformedJson: true },
          { htmlPage: true },
          { drip: { bytes: 1e6, everyMs: 0 } },
        ];
        for (const [index, fault] of faults.entries()) {
          if (fault.drop || fault.cutAfterBytes !== undefined) continue; // nothing whole is answered
          const status = await statusOf(server, endpoint, {}, fault);
          if (!seen.has(status)) seen.set(status, `injected fault ${index}`);
        }
        const undocumented = [...seen].filter(([status]) => !isDocumented(endpoint, status));
        expect(undocumented, `answered but not in the document: ${JSON.stringify(undocumented)}`).toEqual([]);
        // Every documented error status was provoked: the attempts above cover what the mock can answer.
        const errors = documented(endpoint).filter((status) => status >= 400);
        const provoked = [...seen.keys()].filter((status) => errors.includes(status));
        expect(provoked.sort()).toEqual(errors.sort());
        // And the injected server errors met the documented range.
        expect([...seen.keys()].filter((status) => status >= 500).sort()).toEqual([500, 502, 503]);
      } finally {
        await server.close();
      }
    },
  );
});
