import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMockServer, FixtureSchema, type MockServer, startMockServer } from '@company-data/mock-server';
import { AuthenticationError, CompanyData, PermissionDeniedError } from '@company-data/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLACEHOLDER_KEYS } from '../src/index.js';
import { envFor, runChild } from './support/run.js';

let source: MockServer;
let loaded: MockServer;
let dir: string;
let text: string;
let summary: string;

beforeAll(async () => {
  source = await startMockServer({
    port: 0,
    seed: 3,
    sizes: { users: 14, teams: 5, recordings: 40, calls: 320 },
  });
  dir = await mkdtemp(join(tmpdir(), 'company-data-round-trip-'));
  const ran = await runChild(
    ['snapshot', join(dir, 'fixture.json'), '--max-calls', 'all', '--max-recordings', 'all'],
    {
      env: envFor(source),
    },
  );
  expect(ran.stderr).toMatch(/calls: 320/);
  expect(ran.code).toBe(0);
  summary = ran.stdout;
  text = await readFile(join(dir, 'fixture.json'), 'utf8');
  loaded = createMockServer({ fixture: JSON.parse(text) });
}, 60_000);

afterAll(async () => {
  await Promise.all([source?.close(), loaded?.close()]);
  await rm(dir, { recursive: true, force: true });
});

function clientOf(server: MockServer, apiKey: string, inProcess: boolean): CompanyData {
  return new CompanyData({
    apiKey,
    baseURL: server.baseURL,
    dispatcher: inProcess ? server.dispatcher : undefined,
  });
}

describe('company-data snapshot, round trip', () => {
  it('writes a valid fixture with placeholder keys, never the real key, and says so', async () => {
    expect(FixtureSchema.safeParse(JSON.parse(text)).success).toBe(true);
    expect(text).not.toContain(source.keys.valid);
    const fixture = JSON.parse(text);
    expect(fixture.$comment).toMatch(/placeholders .*not the key the data was read with/);
    expect(fixture.$comment).toMatch(/Not anonymized/);
    expect(fixture.companies[0].keys.map((key: { value: string }) => key.value)).toEqual(
      Object.values(PLACEHOLDER_KEYS),
    );
    expect(summary).toMatch(
      /Wrote .*fixture\.json: 14 users, 5 teams, 40 recordings, 320 calls \(360 with a transcript\)/,
    );
    expect(summary).toMatch(/Read in \d+ requests/);
    expect(summary).toMatch(/Not anonymized/);
    // A free port: the default 4010 may be held by the mock of Getting started.
    expect(summary).toMatch(
      /^Serve it: npx company-data-mock --fixture \S+\/fixture\.json --port 0 \(a free port; it prints the base URL\)$/m,
    );
    expect(await readdir(dir)).toEqual(['fixture.json']);
  });

  it('serves the same records from the loaded file: every list in both orderings, every detail and transcript', async () => {
    const real = clientOf(source, source.keys.valid, false);
    const copy = clientOf(loaded, PLACEHOLDER_KEYS.valid, true);
    try {
      for (const ordering of ['-created_at', 'created_at'] as const) {
        for (const name of ['users', 'teams', 'recordings', 'calls'] as const) {
          const list = (client: CompanyData) => client[name].list({ ordering, page_size: 100 }).toArray();
          const [expected, actual] = await Promise.all([list(real), list(copy)]);
          expect(actual.length, name).toBeGreaterThan(0);
          expect(actual, `${name} ${ordering}`).toEqual(expected);
        }
      }
      const first = (client: CompanyData) => client.users.list({ is_active: false });
      expect((await first(copy)).pagination).toEqual((await first(real)).pagination);
      const bySource = (client: CompanyData) => client.calls.list({ source: 'voice_agent', page: 2 });
      expect((await bySource(copy)).data).toEqual((await bySource(real)).data);

      for (const user of await real.users.list({ page_size: 100 }).toArray())
        expect(await copy.users.retrieve(user.id)).toEqual(await real.users.retrieve(user.id));
      for (const team of await real.teams.list().toArray())
        expect(await copy.teams.retrieve(team.id)).toEqual(await real.teams.retrieve(team.id));
      for (const recording of await real.recordings.list({ page_size: 100 }).toArray()) {
        expect(await copy.recordings.retrieve(recording.id)).toEqual(
          await real.recordings.retrieve(recording.id),
        );
        expect(await copy.recordings.transcript(recording.id)).toEqual(
          await real.recordings.transcript(recording.id),
        );
      }
      for (const call of await real.calls.list({ page_size: 100 }).toArray()) {
        expect(await copy.calls.retrieve(call.id)).toEqual(await real.calls.retrieve(call.id));
        expect(await copy.calls.transcript(call.id)).toEqual(await real.calls.transcript(call.id));
      }
    } finally {
      await Promise.all([real.close(), copy.close()]);
    }
  }, 60_000);

  it('gives each placeholder key its persona', async () => {
    const attempt = async (key: string) => {
      const client = clientOf(loaded, key, true);
      try {
        return await client.teams.list().then(
          () => 'ok',
          (error: unknown) => error,
        );
      } finally {
        await client.close();
      }
    };
    expect(await attempt(PLACEHOLDER_KEYS.valid)).toBe('ok');
    expect(await attempt(PLACEHOLDER_KEYS.expired)).toMatchObject({ reason: 'expired_key' });
    expect(await attempt(PLACEHOLDER_KEYS.revoked)).toMatchObject({ reason: 'invalid_key' });
    expect(await attempt(PLACEHOLDER_KEYS.expired)).toBeInstanceOf(AuthenticationError);
    expect(await attempt(PLACEHOLDER_KEYS.noPermission)).toBeInstanceOf(PermissionDeniedError);
  });
});
