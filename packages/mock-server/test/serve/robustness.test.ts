import { buildOpenApiDocument, compilePath } from '@company-data/contract';
import fc from 'fast-check';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { createMockServer } from '../../src/index.js';

// The statuses the OpenAPI document gives each operation; a path of no operation is answered 404 or 405.
const documented = Object.entries(
  buildOpenApiDocument().paths as Record<string, Record<string, { responses: Record<string, unknown> }>>,
).map(([template, operations]) => ({ match: compilePath(template), operations }));

function documentedStatuses(method: string, path: string): number[] {
  for (const { match, operations } of documented) {
    if (!match(path)) continue;
    // HEAD is answered as GET is.
    const operation = operations[method.toLowerCase()] ?? (method === 'HEAD' ? operations.get : undefined);
    return operation ? Object.keys(operation.responses).map(Number) : [405];
  }
  return [404, 405];
}

// Bad input never yields a 5xx, a hang, a status the document does not give, or a half-written record,
// whatever reaches the server.
describe('robustness', () => {
  const server = createMockServer({ quota: false, journalLimit: 0 });
  const segment = fc.oneof(
    fc.constantFrom(
      'v1',
      'users',
      'teams',
      'recordings',
      'calls',
      'transcript',
      'outbound-campaigns',
      'webhook',
    ),
    fc.constantFrom(
      'messaging-agent',
      '__admin',
      '%',
      '%E0%A4%A',
      '..',
      server.tokens.audience,
      server.tokens.lead,
    ),
    fc.uuid(),
    fc.string({ maxLength: 12 }).map(encodeURIComponent),
  );
  const path = fc
    .tuple(fc.array(segment, { maxLength: 5 }), fc.boolean())
    .map(([parts, slash]) => `/${parts.join('/')}${slash ? '/' : ''}`);
  const query = fc.array(
    fc.tuple(
      fc.constantFrom('page', 'page_size', 'ordering', 'is_active', 'source', 'x'),
      fc.oneof(fc.string({ maxLength: 6 }), fc.integer().map(String)),
    ),
    { maxLength: 3 },
  );
  const body = fc.oneof(
    fc.constant(undefined),
    fc.string({ maxLength: 40 }),
    fc.json().map((text) => text),
    fc
      .record(
        {
          phone: fc.oneof(
            fc.string({ maxLength: 16 }),
            fc.constantFrom('(415) 555-0123', '+44 20 7946 0958'),
          ),
          email: fc.oneof(fc.emailAddress(), fc.string({ maxLength: 10 })),
          phone_number: fc.oneof(fc.string({ maxLength: 16 }), fc.integer()),
          custom_fields: fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue()),
        },
        { requiredKeys: [] },
      )
      .map((value) => JSON.stringify(value)),
  );

  it('answers every request with a status below 500 that the OpenAPI document lists for it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
        path,
        query,
        body,
        fc.constantFrom(
          undefined,
          'application/json',
          'text/plain',
          'application/merge-patch+json; charset=utf-8',
        ),
        fc.constantFrom(
          undefined,
          `Bearer ${server.keys.valid}`,
          'Bearer',
          'Basic x',
          `Bearer ${server.keys.noPermissions}`,
        ),
        async (method, pathname, params, payload, contentType, authorization) => {
          const search = new URLSearchParams(params).toString();
          const headers: Record<string, string> = {};
          if (contentType) headers['content-type'] = contentType;
          if (authorization) headers.authorization = authorization;
          const response = await request(`${server.apiRoot}${pathname}${search ? `?${search}` : ''}`, {
            method: method as 'GET',
            dispatcher: server.dispatcher,
            headers,
            body: method === 'GET' ? undefined : payload,
          });
          const text = await response.body.text();
          expect(response.statusCode).toBeLessThan(500);
          expect(response.statusCode).toBeGreaterThanOrEqual(200);
          // As sent (dot segments resolved); the admin API is not part of the API's document.
          const sent = new URL(`${server.apiRoot}${pathname}`).pathname;
          if (!sent.startsWith('/__admin/'))
            expect(documentedStatuses(method, sent), `${method} ${sent}`).toContain(response.statusCode);
          if (method !== 'OPTIONS' && text) {
            // JSON (a parse error fails the run, naming the text); a refusal says why, in either error shape.
            const body = JSON.parse(text) as { error?: string | { detail?: unknown } };
            if (response.statusCode >= 400)
              expect(typeof body.error === 'string' ? body.error : body.error?.detail, text).toMatch(/\w/);
            else expect(body, text).toBeTypeOf('object');
          }
        },
      ),
      { numRuns: 400 },
    );
    // Every member written is whole: it has an id, a status and a phone or an e-mail.
    for (const member of server.members(server.tokens.audience)) {
      expect(member.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(member.status).toBe('active');
      expect(member.phone !== '' || member.email !== '').toBe(true);
    }
  });
});
