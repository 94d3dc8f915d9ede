import { describe, expect, it } from 'vitest';
import {
  BOOLEAN_QUERY_VALUES,
  buildOpenApiDocument,
  compileWireQuery,
  endpointList,
  endpoints,
  LIST_LIMITS,
  MAX_REQUEST_HEAD_BYTES,
} from '../src/index.js';

type Operation = {
  operationId: string;
  description?: string;
  security: unknown[];
  parameters: Array<{ name: string; in: string; required: boolean; description?: string }>;
  responses: Record<string, { description: string; content?: Record<string, { schema: { $ref?: string } }> }>;
  requestBody?: unknown;
};

const document = buildOpenApiDocument() as {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
};

function operation(method: string, path: string): Operation {
  const found = document.paths[path]?.[method];
  if (!found) throw new Error(`${method} ${path} is missing from the OpenAPI document`);
  return found;
}

// The twelve operations of the spec, written out by hand so the table cannot drift from it.
const specOperations = [
  ['get', '/v1/users/', ['ordering', 'page', 'page_size', 'is_active'], [200, 401, 429]],
  ['get', '/v1/users/{id}/', ['id'], [200, 401, 404]],
  ['get', '/v1/teams/', ['ordering', 'page', 'page_size'], [200, 401, 429]],
  ['get', '/v1/teams/{id}/', ['id'], [200, 401, 404]],
  ['get', '/v1/recordings/', ['ordering', 'page', 'page_size'], [200, 401, 429]],
  ['get', '/v1/recordings/{id}/', ['id'], [200, 401, 404]],
  ['get', '/v1/recordings/{id}/transcript/', ['id'], [200, 401, 404, 429]],
  ['get', '/v1/calls/', ['ordering', 'page', 'page_size', 'source'], [200, 401, 429]],
  ['get', '/v1/calls/{id}/', ['id'], [200, 401, 404]],
  ['get', '/v1/calls/{id}/transcript/', ['id'], [200, 401, 404]],
  ['post', '/v1/outbound-campaigns/webhook/{webhook_token}/', ['webhook_token'], [200, 201]],
  ['post', '/messaging-agent/webhook/{webhook_token}/', ['webhook_token'], [200, 400, 404]],
] as const;

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1 with exactly the twelve operations', () => {
    expect(document.openapi).toBe('3.1.0');
    const all = Object.entries(document.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m} ${path}`),
    );
    expect(all.sort()).toEqual(specOperations.map(([m, p]) => `${m} ${p}`).sort());
    expect(endpointList).toHaveLength(12);
  });

  it.each(specOperations)('%s %s has its parameters and responses', (method, path, params, statuses) => {
    const op = operation(method, path);
    expect(op.parameters.map((p) => p.name)).toEqual(params);
    for (const param of op.parameters) expect(param.required).toBe(param.in === 'path');
    for (const status of statuses)
      expect(op.responses[status], `${method} ${path} ${status}`).toMatchObject({
        description: expect.stringMatching(/\w/),
      });
  });

  it('data endpoints require the API key; webhooks use only their path token', () => {
    for (const [method, path] of specOperations) {
      const op = operation(method, path);
      expect(op.security).toEqual(method === 'get' ? [{ apiKey: [] }] : []);
    }
    expect(document.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('puts the lead webhook outside /v1 and gives it the flat error shape', () => {
    const lead = operation('post', '/messaging-agent/webhook/{webhook_token}/');
    expect(lead.responses[400]?.content?.['application/json']?.schema.$ref).toBe(
      '#/components/schemas/FlatErrorBody',
    );
    expect(lead.requestBody).toEqual({
      required: true,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/LeadInput' } } },
    });
    const users = operation('get', '/v1/users/');
    expect(users.responses[401]?.content?.['application/json']?.schema.$ref).toBe(
      '#/components/schemas/ApiErrorBody',
    );
  });

  it('resolves every $ref to a component', () => {
    const refs = JSON.stringify(document).match(/#\/components\/schemas\/\w+/g) ?? [];
    expect(refs.length).toBeGreaterThan(20);
    const unresolved = refs.filter(
      (ref) => !Object.hasOwn(document.components.schemas, ref.split('/').pop() as string),
    );
    expect(unresolved).toEqual([]);
  });

  it('is derived from the table: operation ids match', () => {
    const ids = Object.values(document.paths).flatMap((ops) =>
      Object.values(ops).map((op) => op.operationId),
    );
    expect(ids.sort()).toEqual(Object.keys(endpoints).sort());
  });
});

describe('is_active: the document, the 400 message and the behaviour say the same', () => {
  const spellings = { true: true, True: true, '1': true, false: false, False: false, '0': false };
  const wire = compileWireQuery(endpoints.listUsers.query as never);
  const described = operation('get', '/v1/users/').parameters.find((p) => p.name === 'is_active') as {
    description: string;
  };

  const refused = wire.parse('is_active=yes');

  it.each(Object.entries(spellings))(
    '%s is read as %s, and named by the document and the message',
    (raw, value) => {
      expect(wire.parse(`is_active=${raw}`)).toEqual({
        ok: true,
        values: expect.objectContaining({ is_active: value }),
      });
      expect(described.description).toMatch(new RegExp(`\\b${raw}\\b`));
      expect(refused.ok ? '' : refused.detail).toMatch(new RegExp(`\\b${raw}\\b`));
    },
  );

  it('uses one text for both', () => {
    expect(described.description).toContain(BOOLEAN_QUERY_VALUES);
    expect(refused).toEqual({
      ok: false,
      detail: `Invalid is_active "yes": expected ${BOOLEAN_QUERY_VALUES}.`,
    });
  });
});

describe('each operation describes its own 400, and GETs say they answer HEAD', () => {
  it.each(specOperations)('%s %s', (method, path) => {
    const op = operation(method, path);
    const badRequest = op.responses[400]?.description;
    if (method === 'post') {
      if (badRequest !== undefined) expect(badRequest).toMatch(/body .*query parameters are ignored/);
      expect(op.description).toBeUndefined();
    } else {
      expect(badRequest).toMatch(/query parameter/);
      expect(badRequest).not.toMatch(/body/);
      expect(op.description).toMatch(/HEAD on this path is answered as GET is/);
    }
  });
});

describe('the bounds a client can rely on', () => {
  it("a list response's pagination.page_size is bounded as the page_size parameter is (LIST_LIMITS)", () => {
    const pagination = document.components.schemas.Pagination as {
      properties: Record<string, { minimum?: number; maximum?: number }>;
    };
    expect(pagination.properties.page_size).toMatchObject({
      minimum: LIST_LIMITS.minPageSize,
      maximum: LIST_LIMITS.maxPageSize,
    });
    expect(pagination.properties.page).toMatchObject({ minimum: LIST_LIMITS.minPage });
    const parameter = operation('get', '/v1/calls/').parameters.find(
      (p) => p.name === 'page_size',
    ) as unknown as {
      schema: { minimum: number; maximum: number };
    };
    expect(parameter.schema).toMatchObject({
      minimum: LIST_LIMITS.minPageSize,
      maximum: LIST_LIMITS.maxPageSize,
    });
  });

  it('every operation lists 431, with the request head limit and no body', () => {
    for (const endpoint of endpointList) {
      const method = endpoint.method.toLowerCase();
      const op = Object.values(document.paths).find(
        (path) => path[method]?.operationId === endpoint.operationId,
      )?.[method];
      expect(op?.responses[431], endpoint.operationId).toEqual({
        description: expect.stringContaining(`${MAX_REQUEST_HEAD_BYTES} bytes`),
      });
    }
  });
});
