import {
  buildOpenApiDocument,
  type EndpointDefinition,
  endpointList,
  type JsonObject,
  rootPath,
} from '@company-data/contract';
import { createMockServer } from '@company-data/mock-server';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CompanyData, ValidationError, type WebhookOptions } from '../../src/index.js';

// One set of rules, three readers: for every generated input, the SDK's client-side check, the mock
// server's answer (2xx or 400) and the published OpenAPI document's schema must agree. A rule that
// drifts in any one of them (a bound, an enum, strictness, a pattern) fails this test with the input
// that shows it. One difference is deliberate, and held exactly: the SDK refuses a webhook body field the
// contract does not declare (the server would drop a misspelt one silently), and sends it through its
// `body` option.

const document = buildOpenApiDocument();
const mock = createMockServer({ clock: 'frozen', quota: false, journalLimit: 100 });
const client = new CompanyData({
  apiKey: mock.keys.valid,
  baseURL: mock.baseURL,
  dispatcher: mock.dispatcher,
  maxRetries: 0,
  logLevel: 'error',
});
afterAll(async () => {
  await client.close();
  await mock.close();
});

/** What one reader said of one input. */
interface Verdicts {
  sdk: boolean;
  mock: boolean;
  openapi: boolean;
}

// Query values travel as strings: the validator coerces them as an OpenAPI tool does. Unknown parameters
// are refused (additionalProperties: false), as the mock and the SDK refuse them and the spec-gap table says.
const queryAjv = new Ajv2020({
  coerceTypes: true,
  strict: false,
  validateFormats: false,
  unicodeRegExp: false,
});
// Bodies are JSON: no coercion. The document's patterns are zod's own regular expressions, without the u flag.
const bodyAjv = new Ajv2020({ strict: false, validateFormats: false, unicodeRegExp: false });
bodyAjv.addSchema(document as JsonObject, 'openapi');

function operation(endpoint: EndpointDefinition): JsonObject {
  const path = (document.paths as Record<string, Record<string, JsonObject>>)[rootPath(endpoint)];
  const found = path?.[endpoint.method.toLowerCase()];
  if (!found) throw new Error(`The document lacks ${endpoint.method} ${rootPath(endpoint)}`);
  return found;
}

/** The document's query parameters of an operation, as one closed object schema. */
function queryValidator(endpoint: EndpointDefinition): ValidateFunction {
  const parameters = (operation(endpoint).parameters as JsonObject[]).filter((p) => p.in === 'query');
  return queryAjv.compile({
    type: 'object',
    properties: Object.fromEntries(parameters.map((p) => [p.name, p.schema])),
    required: parameters.filter((p) => p.required).map((p) => p.name),
    additionalProperties: false,
  });
}

function bodyValidator(endpoint: EndpointDefinition): ValidateFunction {
  const body = operation(endpoint).requestBody as { content: Record<string, { schema: { $ref: string } }> };
  const ref = body.content['application/json']?.schema.$ref as string;
  return bodyAjv.getSchema(`openapi${ref}`) as ValidateFunction;
}

// ---- query parameters ------------------------------------------------------------------------------

interface ParamJson {
  type?: string;
  enum?: string[];
  minimum?: number;
  maximum?: number;
}

const EDGE_INTEGERS = [
  0,
  -1,
  1,
  2,
  99,
  100,
  101,
  999_999_999,
  1_000_000_000,
  2 ** 31,
  2 ** 53 - 1,
  2 ** 53,
  1e21,
];

/** Values of a parameter's own JS type, valid and not: what a caller (typed or not) may pass. */
function valuesOf(json: ParamJson): fc.Arbitrary<unknown> {
  if (json.enum) {
    const values = json.enum;
    return fc.oneof(
      fc.constantFrom(...values),
      fc.constantFrom(...values).map((value) => value.toUpperCase()),
      fc.constantFrom(...values).map((value) => value.charAt(0).toUpperCase() + value.slice(1)),
      fc.string({ maxLength: 12 }),
    );
  }
  if (json.type === 'integer') {
    const min = json.minimum ?? -1000;
    return fc.oneof(
      fc.integer({ min, max: Math.min(json.maximum ?? min + 200, min + 200) }),
      fc.constantFrom(...EDGE_INTEGERS, -0),
      fc.maxSafeInteger(),
      fc.double(),
    );
  }
  if (json.type === 'boolean') return fc.boolean();
  throw new Error(`No generator for ${JSON.stringify(json)}`);
}

function paramsOf(endpoint: EndpointDefinition): fc.Arbitrary<Record<string, unknown>> {
  const shape = (endpoint.query as z.ZodObject).shape as Record<string, z.ZodType>;
  const names = Object.keys(shape);
  const known = Object.fromEntries(
    names.map((name) => {
      const value = valuesOf(z.toJSONSchema(shape[name] as z.ZodType, { io: 'input' }) as ParamJson);
      // A repeated parameter: two values of its type (one would read as a single value on the wire).
      return [
        name,
        fc.oneof({ weight: 6, arbitrary: value }, { weight: 1, arbitrary: fc.tuple(value, value) }),
      ];
    }),
  );
  const unknownName = fc
    .oneof(
      fc.constantFrom(...names.map((name) => name.toUpperCase()), 'Page', 'pagesize', 'souce', 'isActive'),
      fc.string({ minLength: 1, maxLength: 8 }),
    )
    .filter((name) => !names.includes(name) && name !== 'page');
  const unknown = fc.dictionary(unknownName, fc.oneof(fc.string({ maxLength: 6 }), fc.integer()), {
    maxKeys: 1,
  });
  return fc
    .tuple(fc.record(known, { requiredKeys: [] }), fc.option(unknown, { freq: 4 }))
    .map(([params, extra]) => ({ ...params, ...(extra ?? {}) }));
}

/** The query as the SDK puts it on the wire, plus the page it always sends. */
function wireEntries(params: Record<string, unknown>): [string, string][] {
  const entries: [string, string][] = [];
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) entries.push([name, String(one)]);
  }
  if (!('page' in params)) entries.push(['page', '1']);
  return entries;
}

function wireObject(entries: [string, string][]): Record<string, string | string[]> {
  const object: Record<string, string | string[]> = {};
  for (const [name, value] of entries) {
    const earlier = object[name];
    object[name] = earlier === undefined ? value : [...(Array.isArray(earlier) ? earlier : [earlier]), value];
  }
  return object;
}

async function mockAccepts(method: string, path: string, search: string, body?: unknown): Promise<boolean> {
  const response = await request(`${mock.apiRoot}${path}${search ? `?${search}` : ''}`, {
    method: method as 'GET',
    dispatcher: mock.dispatcher,
    headers: { authorization: `Bearer ${mock.keys.valid}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await response.body.dump();
  if (response.statusCode !== 400 && (response.statusCode < 200 || response.statusCode > 299))
    throw new Error(`${method} ${path}?${search} answered ${response.statusCode}`);
  return response.statusCode !== 400;
}

/** Runs a client call: accepted when it was sent (whatever the server said), refused on a ValidationError. */
async function sdkAccepts(call: () => PromiseLike<unknown>): Promise<boolean> {
  const before = mock.journal().length;
  try {
    await call();
    return true;
  } catch (error) {
    if (!(error instanceof ValidationError)) return true;
    expect(mock.journal().length, 'a refused call sends nothing').toBe(before);
    return false;
  }
}

type Lister = (params: never) => PromiseLike<unknown>;
const listers: Record<string, Lister> = {
  users: (params) => client.users.list(params),
  teams: (params) => client.teams.list(params),
  recordings: (params) => client.recordings.list(params),
  calls: (params) => client.calls.list(params),
};

describe('query parameters: SDK, mock server and OpenAPI document agree', () => {
  const lists = endpointList.filter((endpoint) => endpoint.kind === 'list');
  it.each(lists.map((endpoint) => [endpoint.operationId, endpoint] as const))(
    '%s',
    async (_name, endpoint) => {
      const validate = queryValidator(endpoint);
      const list = listers[endpoint.resource as string] as Lister;
      await fc.assert(
        fc.asyncProperty(paramsOf(endpoint), async (params) => {
          const entries = wireEntries(params);
          const verdicts: Verdicts = {
            sdk: await sdkAccepts(() => list(params as never)),
            mock: await mockAccepts('GET', rootPath(endpoint), new URLSearchParams(entries).toString()),
            openapi: validate(wireObject(entries)),
          };
          expect(verdicts, JSON.stringify(params)).toEqual({
            sdk: verdicts.openapi,
            mock: verdicts.openapi,
            openapi: verdicts.openapi,
          });
        }),
        { numRuns: 250 },
      );
    },
  );

  it('reaches page 2^53 − 1 in all three, and no further', async () => {
    const endpoint = lists[0] as EndpointDefinition;
    const validate = queryValidator(endpoint);
    for (const [page, accepted] of [
      [1_000_000_000, true],
      [2 ** 53 - 1, true],
      [2 ** 53, false],
    ] as const) {
      expect(await sdkAccepts(() => client.users.list({ page }))).toBe(accepted);
      expect(await mockAccepts('GET', '/v1/users/', `page=${page}`)).toBe(accepted);
      expect(validate({ page: String(page) })).toBe(accepted);
    }
  });
});

// ---- webhook bodies --------------------------------------------------------------------------------

const notString = fc.oneof(
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 }),
);
const blank = fc.constantFrom('', ' ', '\t', '  \n');
const text = fc.oneof({ weight: 4, arbitrary: fc.string({ maxLength: 12 }) }, blank, notString);
const customFields = fc.oneof(
  { weight: 4, arbitrary: fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 1 })) },
  notString,
);
// Phones the mock can normalise: whether a number exists is a rule past any schema (a 400 of its own on the
// audience webhook, tested elsewhere), so the audience generator keeps to real numbers and blank ones.
const phone = fc.oneof(
  fc.constantFrom('(415) 555-0123', '415-555-0199', '+44 20 7946 0958', '+1 212 555 0147', '4155550100'),
  blank,
  notString,
);
const email = fc.oneof(fc.emailAddress(), fc.string({ maxLength: 10 }), blank, notString);

const bodies = {
  addAudienceMember: fc.record(
    {
      first_name: text,
      last_name: text,
      phone,
      email,
      custom_fields: customFields,
      extra: fc.jsonValue({ maxDepth: 1 }),
    },
    { requiredKeys: [] },
  ),
  submitLead: fc.record(
    {
      phone_number: fc.oneof(phone, fc.string({ maxLength: 12 })),
      customer_name: text,
      email: text,
      zip: text,
      utm_source: text,
      custom_fields: customFields,
      extra: fc.jsonValue({ maxDepth: 1 }),
    },
    { requiredKeys: [] },
  ),
};

describe('webhook bodies: SDK, mock server and OpenAPI document agree', () => {
  it.each(Object.entries(bodies))('%s', async (operationId, arbitrary) => {
    const endpoint = endpointList.find((row) => row.operationId === operationId) as EndpointDefinition;
    const validate = bodyValidator(endpoint);
    const token = operationId === 'addAudienceMember' ? mock.tokens.audience : mock.tokens.lead;
    const path = rootPath(endpoint).replace('{webhook_token}', token);
    const send = (body: Record<string, unknown>, options?: WebhookOptions) =>
      operationId === 'addAudienceMember'
        ? client.audiences.addMember(token, body as never, options)
        : client.leads.submit(token, body as never, options);
    await fc.assert(
      fc.asyncProperty(arbitrary, async (body) => {
        const { extra, ...declared } = body;
        const undeclared = 'extra' in body;
        const verdicts: Verdicts & { sdkWithBodyOption: boolean } = {
          sdk: await sdkAccepts(() => send(body)),
          sdkWithBodyOption: await sdkAccepts(() => send(declared, { body: undeclared ? { extra } : {} })),
          mock: await mockAccepts('POST', path, '', body),
          openapi: validate(body),
        };
        expect(verdicts, JSON.stringify(body)).toEqual({
          sdk: verdicts.openapi && !undeclared,
          sdkWithBodyOption: verdicts.openapi,
          mock: verdicts.openapi,
          openapi: verdicts.openapi,
        });
      }),
      { numRuns: 250 },
    );
  });
});
