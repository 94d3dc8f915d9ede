import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Call, RecordingDetail, RecordingTranscriptSegment, Team, User } from '@company-data/contract';
import {
  createMockServer,
  type Fixture,
  FixtureSchema,
  type MockServer,
  startMockServer,
} from '@company-data/mock-server';
import { CompanyData } from '@company-data/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envFor, runChild, runInProcess } from './support/run.js';

type Recording = RecordingDetail & { transcript: RecordingTranscriptSegment[] };
type WithTranscript = Call & { transcript: { text: string }[] };

let source: MockServer;
let dir: string;

beforeAll(async () => {
  source = await startMockServer({ port: 0, seed: 11, sizes: { users: 20, recordings: 30, calls: 300 } });
  dir = await mkdtemp(join(tmpdir(), 'company-data-anonymize-'));
});
afterAll(async () => {
  await source.close();
  await rm(dir, { recursive: true, force: true });
});

async function snapshotTo(
  file: string,
  extra: readonly string[],
  server: Pick<MockServer, 'baseURL' | 'keys'> = source,
) {
  const ran = await runInProcess(['snapshot', file, '--max-calls', 'all', '--anonymize', ...extra], {
    env: envFor(server),
    cwd: dir,
  });
  expect(ran.stderr).not.toMatch(/company-data:/);
  expect(ran.code).toBe(0);
  const text = await readFile(join(dir, file), 'utf8');
  return { text, fixture: JSON.parse(text) as Fixture, summary: ran.stdout };
}

/** Everything personal the source serves, read through the SDK. */
async function sourceData() {
  const client = new CompanyData({ apiKey: source.keys.valid, baseURL: source.baseURL });
  try {
    const users = await client.users.list({ page_size: 100 }).toArray();
    const teams = await client.teams.list().toArray();
    const recordings = await client.recordings.list({ page_size: 100 }).toArray();
    const calls = await client.calls.list({ page_size: 100 }).toArray();
    const transcripts = [
      ...(await Promise.all(recordings.map((recording) => client.recordings.transcript(recording.id)))),
      ...(await Promise.all(calls.map((call) => client.calls.transcript(call.id)))),
    ].flatMap(({ transcript }) => transcript.map((segment) => segment.text));
    return { users, teams, recordings, calls, transcripts };
  } finally {
    await client.close();
  }
}

describe('company-data snapshot --anonymize', () => {
  it('leaves no name, e-mail, id or free text of the source in the file, and keeps every relationship', async () => {
    const { text, fixture, summary } = await snapshotTo('anonymous.json', ['--seed', 'test-seed-0123456789']);
    const real = await sourceData();
    const names = new Set(
      [
        ...real.users.flatMap((user) => [user.first_name, user.last_name]),
        ...real.calls.map((call) => call.user.full_name),
      ].flatMap((name) => name.split(' ')),
    );
    expect(names.size).toBeGreaterThan(20);
    for (const name of names) expect(text, name).not.toMatch(new RegExp(`\\b${name}\\b`));
    for (const user of real.users) expect(text).not.toContain(user.email);
    const texts = new Set([
      ...real.transcripts,
      ...real.calls.map((call) => call.summary),
      ...real.calls.flatMap((call) => (call.excuse_reason ? [call.excuse_reason] : [])),
      ...real.recordings.map((recording) => recording.name),
      ...real.teams.flatMap((team: Team) => [team.name, team.description]),
    ]);
    expect(real.transcripts.length).toBeGreaterThan(1000);
    for (const free of texts) expect(text, free).not.toContain(free);
    for (const record of [...real.users, ...real.teams, ...real.recordings, ...real.calls])
      expect(text).not.toContain(record.id);

    expect(FixtureSchema.safeParse(fixture).success).toBe(true);
    const company = fixture.companies[0] as {
      users: User[];
      recordings: Recording[];
      calls: WithTranscript[];
    };
    expect(company.users).toHaveLength(real.users.length);
    expect(company.calls).toHaveLength(300);
    expect(new Set(company.users.map((user) => user.email)).size).toBe(real.users.length);
    expect(new Set(company.users.map((user) => user.full_name)).size).toBe(
      new Set(real.users.map((user) => user.full_name)).size,
    );
    const userById = new Map(company.users.map((user) => [user.id, user]));
    for (const record of [...company.recordings, ...company.calls]) {
      expect(userById.get(record.user.id)?.full_name).toBe(record.user.full_name);
    }
    for (const user of company.users) {
      expect(user.full_name).toBe(`${user.first_name} ${user.last_name}`);
      expect(user.email).toMatch(/@example\.com$/);
    }
    // Who did what stays: each real user's share of the calls is one made-up user's share.
    const share = (calls: { user: { id: string } }[]) => calls.map((call) => call.user.id);
    const realIds = share(real.calls);
    const madeUp = share(company.calls);
    expect(madeUp.map((id) => madeUp.indexOf(id))).toEqual(realIds.map((id) => realIds.indexOf(id)));
    expect(company.calls.map((call) => call.created_at)).toEqual(real.calls.map((call) => call.created_at));
    for (const segment of company.recordings.flatMap((recording) => recording.transcript))
      expect(segment.text.toLowerCase()).toBe(
        segment.words
          .map((word) => word.text)
          .join(' ')
          .toLowerCase(),
      );

    expect(summary).toMatch(/Anonymized: .*derived from your --seed/);
  });

  it('gives the same file for the same seed and other stand-ins for another seed', async () => {
    const few = ['--max-calls', '40', '--max-recordings', '5'];
    const first = await snapshotTo('first.json', [...few, '--seed', 'same-seed-0123456789']);
    const again = await snapshotTo('again.json', [...few, '--seed', 'same-seed-0123456789']);
    const other = await snapshotTo('other.json', [...few, '--seed', 'other-seed-0123456789']);
    const random = await snapshotTo('random.json', few);
    expect(again.text).toBe(first.text);
    expect(other.text).not.toBe(first.text);
    const firstUsers = (first.fixture.companies[0]?.users ?? []).map((user) => user.full_name);
    const otherUsers = (other.fixture.companies[0]?.users ?? []).map((user) => user.full_name);
    expect(otherUsers.filter((name) => firstUsers.includes(name)).length).toBeLessThan(firstUsers.length / 2);
    expect(random.summary).toMatch(/from a random seed \(pass --seed/);
  });

  it('removes fields the contract does not know, which may hold phone numbers, and says which', async () => {
    const phone = '+1 415-555-0199';
    const generated = createMockServer();
    const [user, call] = [await firstOf(generated, 'users'), await firstOf(generated, 'calls')];
    await generated.close();
    const transcript = [{ speaker: 'customer', text: `Call me back at ${phone}`, start: 0, end: 900 }];
    // Fields the contract does not declare: spread into the fixture, as its closed types refuse them written out.
    const extras = { user: { ...user, mobile: phone }, call: { ...call, caller_phone: phone, transcript } };
    const served = await startMockServer({
      port: 0,
      fixture: { companies: [{ name: 'Extras', users: [{ ...extras.user }], calls: [{ ...extras.call }] }] },
    });
    try {
      const { text, summary } = await snapshotTo('extras.json', ['--seed', 'x-seed-0123456789abc'], served);
      expect(text).not.toContain('415');
      expect(summary).toMatch(
        /Removed fields the contract does not know .*users\.mobile \(1\), calls\.caller_phone \(1\)/,
      );
    } finally {
      await served.close();
    }
  });
});

async function firstOf<Kind extends 'users' | 'calls'>(
  server: MockServer,
  kind: Kind,
): Promise<Kind extends 'users' ? User : Call> {
  const client = new CompanyData({
    apiKey: server.keys.valid,
    baseURL: server.baseURL,
    dispatcher: server.dispatcher,
  });
  try {
    return (await client[kind].list()).data[0] as Kind extends 'users' ? User : Call;
  } finally {
    await client.close();
  }
}

describe('company-data snapshot --anonymize with an empty or short seed', () => {
  it.each([
    [
      '',
      /^company-data: seed is empty \(is the variable in --seed "\$FIXTURE_SEED" set\?\): the seed is a secret/,
    ],
    ['short', /^company-data: seed has 5 characters: .* 16 characters or more/],
  ])('--seed %j is refused before any request, with exit 2 and how to make one', async (seed, message) => {
    const output = join(dir, `seed-${seed.length}.json`);
    // As the shell runs `--seed "$FIXTURE_SEED"` with the variable unset: an empty argument.
    const ran = await runChild(['snapshot', output, '--anonymize', '--seed', seed], { env: envFor(source) });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toMatch(message);
    expect(ran.stderr).toContain('openssl rand -hex 16');
    expect(ran.stdout).toBe('');
    await expect(readFile(output)).rejects.toThrow(/ENOENT/);
  });
});
