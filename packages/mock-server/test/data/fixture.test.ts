import { readFileSync } from 'node:fs';
import { AudienceMember, ERROR_DETAILS, UserList } from '@company-data/contract';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import {
  createMockServer,
  type Fixture,
  FixtureError,
  FixtureSchema,
  fixtureJsonSchema,
  type MockServer,
} from '../../src/index.js';
import {
  ADA,
  AUDIENCE_TOKEN,
  BOB,
  CALL_1,
  CALL_2,
  DELETED_LEAD_TOKEN,
  KEY,
  LEAD_TOKEN,
  ORDERS_ONLY_KEY,
  RECORDING,
  sampleFixture,
} from '../support/fixture-sample.js';

// biome-ignore lint/suspicious/noExplicitAny: tests poke at JSON and fixtures loosely.
type Loose = any;

async function get(server: MockServer, path: string, key = KEY) {
  const response = await request(`${server.baseURL}${path}`, {
    dispatcher: server.dispatcher,
    headers: { authorization: `Bearer ${key}` },
  });
  return {
    status: response.statusCode,
    headers: response.headers,
    json: (await response.body.json()) as Loose,
  };
}

async function post(server: MockServer, url: string, body: unknown) {
  const response = await request(url, {
    method: 'POST',
    dispatcher: server.dispatcher,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.statusCode, json: (await response.body.json()) as Loose };
}

function expectFixtureError(run: () => unknown, path: string, message?: RegExp): FixtureError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(FixtureError);
    const fixtureError = error as FixtureError;
    expect(fixtureError.path).toBe(path);
    expect(fixtureError.message).toContain(path);
    if (message) expect(fixtureError.message).toMatch(message);
    return fixtureError;
  }
  throw new Error('expected a FixtureError');
}

describe('fixtures', () => {
  it('serves the fixture records in created_at order, with their own ids and extra fields', async () => {
    const server = createMockServer({ fixture: sampleFixture() });
    const users = UserList.parse((await get(server, '/users/')).json);
    expect(users.data.map((user) => user.id)).toEqual([ADA, BOB]);
    expect(users.data[1]).toMatchObject({ nickname: 'bb' });
    expect((await get(server, '/users/?ordering=created_at')).json.data[0].id).toBe(BOB);
    expect((await get(server, '/users/?is_active=false')).json.data.map((u: { id: string }) => u.id)).toEqual(
      [BOB],
    );
    expect(
      (await get(server, '/calls/?source=integration')).json.data.map((c: { id: string }) => c.id),
    ).toEqual([CALL_1]);
    expect((await get(server, '/calls/')).json.data.map((c: { id: string }) => c.id)).toEqual([
      CALL_2,
      CALL_1,
    ]);
    expect((await get(server, `/calls/${CALL_2}/`)).json.data).not.toHaveProperty('transcript');
    expect((await get(server, `/calls/${CALL_2}/transcript/`)).json.data.transcript[0].speaker).toBe('agent');
    expect((await get(server, `/calls/${CALL_1}/transcript/`)).json.data).toEqual({
      id: CALL_1,
      transcript: [],
    });
    const recording = (await get(server, `/recordings/${RECORDING}/`)).json.data;
    expect(recording.custom_fields[0].value).toBe('Won');
    expect((await get(server, '/recordings/')).json.data[0]).not.toHaveProperty('custom_fields');
    expect(
      (await get(server, `/recordings/${RECORDING}/transcript/`)).json.data.transcript[0].words,
    ).toHaveLength(2);
  });

  it('uses the explicit keys and tokens', async () => {
    const server = createMockServer({ fixture: sampleFixture() });
    expect(server.tokens).toEqual({
      audience: AUDIENCE_TOKEN,
      lead: LEAD_TOKEN,
      deletedLead: DELETED_LEAD_TOKEN,
    });
    expect((await get(server, '/calls/', ORDERS_ONLY_KEY)).status).toBe(403);
    expect((await get(server, '/users/', ORDERS_ONLY_KEY)).status).toBe(200);
    expect((await get(server, '/users/', 'svc_live_fixture_old')).json.error.detail).toBe(
      ERROR_DETAILS.expiredKey,
    );
    expect((await get(server, '/users/', 'svc_live_fixture_revoked')).json.error.detail).toBe(
      ERROR_DETAILS.invalidKey,
    );
    expect((await get(server, `/users/${ADA}/`, 'svc_live_second')).status).toBe(404);
    expect((await get(server, '/users/', server.keys.valid)).status).toBe(200);
    expect((await get(server, '/calls/', server.keys.limited)).status).toBe(403);
    expect((await get(server, `/users/${ADA}/`, server.keys.otherCompany)).status).toBe(404);
  });

  it('loads audiences with existing members and lead sources, live and deleted', async () => {
    const server = createMockServer({ fixture: sampleFixture() });
    const members = server.members(AUDIENCE_TOKEN);
    expect(members).toHaveLength(2);
    expect(members[0]).toMatchObject({
      phone: '+14155550142',
      custom_fields: { tier: 'gold' },
      created_at: '2026-06-01T12:00:00.000Z',
    });
    expect(members.map((member) => AudienceMember.parse(member).status)).toEqual(['active', 'opted_out']);
    const again = await post(server, `${server.baseURL}/outbound-campaigns/webhook/${AUDIENCE_TOKEN}/`, {
      phone: '415 555 0142',
    });
    expect(again.status).toBe(200);
    expect(again.json.id).toBe(members[0]?.id);
    expect(
      (
        await post(server, `${server.apiRoot}/messaging-agent/webhook/${LEAD_TOKEN}/`, {
          phone_number: '4155550100',
        })
      ).status,
    ).toBe(200);
    const deleted = await post(server, `${server.apiRoot}/messaging-agent/webhook/${DELETED_LEAD_TOKEN}/`, {
      phone_number: '4155550100',
    });
    expect(deleted).toEqual({ status: 404, json: { error: 'Not found' } });
  });

  it('keeps key ids, creation times and quotas, audience creation times and lead source deletion times', async () => {
    const keyId = 'f0000000-0000-4000-8000-000000000001';
    const later = 'e0000000-0000-4000-8000-0000000000aa';
    const server = createMockServer({
      clock: 'frozen',
      fixture: {
        companies: [
          {
            name: 'Acme',
            keys: [
              { id: keyId, value: 'svc_live_dated', name: 'Dated', created_at: '2025-03-04T05:06:07Z' },
              { value: 'svc_live_slow', name: 'Slow', quota: { requests: 1, per_seconds: 20 } },
              { value: 'svc_live_free', name: 'Free', quota: false },
            ],
            audiences: [{ name: 'Old', token: AUDIENCE_TOKEN, created_at: '2025-01-01T00:00:00Z' }],
            lead_sources: [
              { name: 'Closing soon', token: later, deleted_at: '2026-06-01T13:00:00Z' },
              { name: 'Gone', token: DELETED_LEAD_TOKEN, deleted_at: '2026-05-01T00:00:00Z' },
              { name: 'Live', token: LEAD_TOKEN, deleted: false, deleted_at: null },
            ],
          },
        ],
      },
    });
    const keys = Object.fromEntries(server.apiKeys().map((key) => [key.name, key]));
    expect(keys.Dated).toMatchObject({ id: keyId, createdAt: '2025-03-04T05:06:07.000Z', quota: null });
    expect(keys.Slow?.createdAt).toBe('2026-06-01T12:00:00.000Z');
    expect(keys.Slow?.quota).toEqual({ requests: 1, perSeconds: 20 });
    expect(keys.Free?.quota).toBe(false);
    expect(server.webhooks().audiences[0]).toMatchObject({
      name: 'Old',
      createdAt: '2025-01-01T00:00:00.000Z',
    });

    expect((await get(server, '/teams/', 'svc_live_slow')).status).toBe(200);
    expect((await get(server, '/teams/', 'svc_live_slow')).headers['retry-after']).toBe('20');

    const lead = (token: string) =>
      post(server, `${server.apiRoot}/messaging-agent/webhook/${token}/`, { phone_number: '4155550100' });
    expect((await lead(later)).status).toBe(200);
    expect((await lead(DELETED_LEAD_TOKEN)).status).toBe(404);
    expect(server.tokens.deletedLead).toBe(DELETED_LEAD_TOKEN);
    server.clock.advance(60 * 60 * 1000);
    expect((await lead(later)).status).toBe(404);
    expect((await lead(LEAD_TOKEN)).status).toBe(200);
    expect(server.webhooks().leadSources.find((source) => source.token === later)).toMatchObject({
      deleted: true,
      deletedAt: '2026-06-01T13:00:00.000Z',
    });
  });

  it('refuses a lead source that is both not deleted and deleted at a time', () => {
    expect(() =>
      createMockServer({
        fixture: {
          companies: [
            {
              name: 'A',
              lead_sources: [
                { name: 'X', token: LEAD_TOKEN, deleted: false, deleted_at: '2026-01-01T00:00:00Z' },
              ],
            },
          ],
        },
      }),
    ).toThrow(/lead_sources\[0\]\.deleted: deleted is false but deleted_at is set/);
  });

  it('adds an empty second company and the missing tokens for a minimal fixture', async () => {
    const server = createMockServer({ fixture: { companies: [{ name: 'Solo' }] } });
    expect((await get(server, '/users/', server.keys.valid)).json.pagination).toEqual({
      count: 0,
      page: 1,
      page_size: 25,
      total_pages: 0,
    });
    expect((await get(server, '/users/', server.keys.otherCompany)).status).toBe(200);
    expect(server.members(server.tokens.audience)).toEqual([]);
    const lead = await post(
      server,
      `${server.apiRoot}/messaging-agent/webhook/${server.tokens.deletedLead}/`,
      { phone_number: '4155550100' },
    );
    expect(lead.status).toBe(404);
  });

  it('ignores $schema and $comment, and refuses any other unknown top-level field', () => {
    const noted = {
      $schema: './fixture.schema.json',
      $comment: 'Where the data came from',
      companies: [{ name: 'A' }],
    };
    expect(createMockServer({ fixture: noted }).keys.valid).toMatch(/^svc_live_/);
    expect(() => createMockServer({ fixture: { ...noted, $note: 'x' } as Fixture })).toThrow(FixtureError);
  });

  it.each([
    ['a missing company list', {}, 'companies'],
    ['an empty company list', { companies: [] }, 'companies'],
    ['a misspelt field', { companies: [{ name: 'A', lead_source: [] }] }, 'companies[0]'],
    [
      'a bad user e-mail',
      (() => {
        const fixture = sampleFixture();
        (fixture.companies[0]?.users?.[1] as { email: string }).email = 'nope';
        return fixture;
      })(),
      'companies[0].users[1].email',
    ],
    [
      'a bad token',
      { companies: [{ name: 'A', lead_sources: [{ name: 'x', token: 'abc' }] }] },
      'companies[0].lead_sources[0].token',
    ],
    [
      'a key with spaces',
      { companies: [{ name: 'A', keys: [{ value: 'a b' }] }] },
      'companies[0].keys[0].value',
    ],
    [
      'a member with neither phone nor e-mail',
      {
        companies: [
          { name: 'A', audiences: [{ name: 'x', token: AUDIENCE_TOKEN, members: [{ first_name: 'N' }] }] },
        ],
      },
      'companies[0].audiences[0].members[0].phone',
    ],
  ])('names the path of %s', (_name, fixture, path) => {
    expectFixtureError(() => createMockServer({ fixture: fixture as Fixture }), path);
  });

  it.each([
    [
      'a duplicate record id',
      (fixture: Loose) => {
        fixture.companies[0].teams.push({ ...fixture.companies[0].teams[0] });
      },
      'companies[0].teams[1].id',
    ],
    [
      'a duplicate key value',
      (fixture: Loose) => {
        fixture.companies[1].keys.push({ value: KEY });
      },
      'companies[1].keys[1].value',
    ],
    [
      'a duplicate token',
      (fixture: Loose) => {
        fixture.companies[1].audiences[0].token = LEAD_TOKEN;
      },
      'companies[1].audiences[0].token',
    ],
    [
      'an invalid member phone',
      (fixture: Loose) => {
        fixture.companies[0].audiences[0].members[1].phone = '12';
      },
      'companies[0].audiences[0].members[1].phone',
    ],
    [
      'the same member phone twice',
      (fixture: Loose) => {
        fixture.companies[0].audiences[0].members[1].phone = '+1 415 555 0142';
      },
      'companies[0].audiences[0].members[1].phone',
    ],
    [
      'the same member e-mail twice',
      (fixture: Loose) => {
        fixture.companies[0].audiences[0].members[1].email = 'KNOWN@example.com';
      },
      'companies[0].audiences[0].members[1].email',
    ],
    [
      'a duplicate company id',
      (fixture: Loose) => {
        fixture.companies[0].id = 'f0000000-0000-4000-8000-000000000001';
        fixture.companies[1].id = 'f0000000-0000-4000-8000-000000000001';
      },
      'companies[1].id',
    ],
  ])('rejects %s with its path', (_name, spoil, path) => {
    const fixture = sampleFixture();
    spoil(fixture);
    expectFixtureError(() => createMockServer({ fixture }), path, /Duplicate|valid phone/);
  });

  it('lists every issue and loads nothing from a bad fixture', async () => {
    const server = createMockServer();
    const before = (await get(server, '/users/', server.keys.valid)).json;
    const bad = sampleFixture();
    (bad.companies[0] as { name: unknown }).name = 42;
    (bad.companies[0]?.teams?.[0] as { created_at: string }).created_at = 'yesterday';
    const error = expectFixtureError(() => server.loadFixture(bad), 'companies[0].name');
    expect(error.issues.map((issue) => issue.path)).toContain('companies[0].teams[0].created_at');
    expect(error.message).toMatch(/and 1 more/);
    expect((await get(server, '/users/', server.keys.valid)).json).toEqual(before);
  });

  it('loads a fixture at run time; reset returns to it; reseed goes back to generated data', async () => {
    const server = createMockServer();
    server.loadFixture(sampleFixture());
    expect((await get(server, '/users/')).json.pagination.count).toBe(2);
    await post(server, `${server.baseURL}/outbound-campaigns/webhook/${AUDIENCE_TOKEN}/`, {
      email: 'new@example.com',
    });
    expect(server.members(AUDIENCE_TOKEN)).toHaveLength(3);
    server.reset();
    expect(server.members(AUDIENCE_TOKEN)).toHaveLength(2);
    server.reseed({ seed: 9, sizes: { users: 3 } });
    expect((await get(server, '/users/', server.keys.valid)).json.pagination.count).toBe(3);
    expect((await get(server, '/users/', KEY)).status).toBe(401);
  });

  it('loads the example fixture of docs/fixtures.md', () => {
    const docs = readFileSync(new URL('../../../../docs/fixtures.md', import.meta.url), 'utf8');
    const example = /## The format\n\n(?:.*\n\n)?```json\n([\s\S]*?)\n```/.exec(docs)?.[1];
    const server = createMockServer({ fixture: JSON.parse(example ?? 'null') });
    expect(server.apiKeys().find((key) => key.prefix === 'svc_live_slo')?.quota).toEqual({
      requests: 2,
      perSeconds: 10,
    });
  });

  it('exports the schema, and docs/fixtures.md shows the same JSON Schema', () => {
    expect(FixtureSchema.safeParse(sampleFixture()).success).toBe(true);
    const docs = readFileSync(new URL('../../../../docs/fixtures.md', import.meta.url), 'utf8');
    const block = /```json schema\n([\s\S]*?)\n```/.exec(docs)?.[1];
    expect(block && JSON.parse(block)).toEqual(fixtureJsonSchema());
  });
});
