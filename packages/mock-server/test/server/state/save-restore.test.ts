import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type ActivityOptions,
  createMockServer,
  type MockServer,
  type MockState,
} from '../../../src/index.js';
import { ADA, sampleFixture } from '../../support/fixture-sample.js';
import { everyBody, get, post } from './support.js';

// A busy world on a frozen clock: record changes by the controls, keys, webhooks, quota windows and an
// activity that brings calls and recordings, excuses and deletes calls and deactivates users, under two
// schedules (the activity is changed halfway). Saved, through JSON, into a fresh server: every list page and
// a sample of details must be the same bytes, and stay so as both clocks move on.

const ACTIVITY: ActivityOptions = {
  callsPerMinute: 20,
  excusedShare: 0.5,
  excusedAfterMinutes: { min: 1, max: 30 },
  recordingsPerHour: 40,
  deactivationsPerDay: 150,
  callDeletionsPerHour: 40,
};
const MINUTE = 60_000;

const audiencePath = (server: MockServer) => `/v1/outbound-campaigns/webhook/${server.tokens.audience}/`;
const leadPath = (server: MockServer) => `/messaging-agent/webhook/${server.tokens.lead}/`;

/** The ids of a list's first records, oldest first. */
async function oldest(server: MockServer, resource: string, count: number): Promise<string[]> {
  const answer = await get(
    server,
    `/v1/${resource}/?ordering=created_at&page_size=${count}`,
    server.keys.valid,
  );
  return (JSON.parse(answer.body) as { data: { id: string }[] }).data.map((record) => record.id);
}

/** The ids of the calls the activity brought that are still there. */
function arrivedCalls(server: MockServer): string[] {
  const deleted = new Set(
    server
      .changes()
      .filter((change) => change.kind === 'deleted')
      .map((change) => change.id),
  );
  return server
    .changes()
    .filter(
      (change) => change.origin === 'activity' && change.kind === 'created' && change.resource === 'calls',
    )
    .map((change) => change.id)
    .filter((id) => !deleted.has(id));
}

interface Busy {
  readonly server: MockServer;
  /** A key created at run time. */
  readonly key: string;
}

async function busyWorld(): Promise<Busy> {
  const server = createMockServer({ seed: 11, clock: 'frozen', activity: ACTIVITY });
  server.clock.advance(10 * MINUTE);

  const ada = server.records.create('users', { first_name: 'Ada', last_name: 'Lovelace' });
  const [firstUser, secondUser] = await oldest(server, 'users', 2);
  server.records.update('users', firstUser as string, { is_active: false });
  server.records.update('users', secondUser as string, { last_name: 'Renamed' });
  server.records.delete('teams', (await oldest(server, 'teams', 1))[0] as string);
  const named = server.records.create('calls', { user: { id: ada.id }, source: 'voice_agent' });
  server.records.create('calls', {});
  server.records.update('calls', named.id, { summary: 'Changed after it was created.' });
  server.records.update('calls', (await oldest(server, 'calls', 1))[0] as string, { is_excused: true });
  server.records.create('recordings', { name: 'Made by a control' });
  server.records.delete('recordings', (await oldest(server, 'recordings', 1))[0] as string);
  const [changedArrival, deletedArrival] = arrivedCalls(server);
  server.records.update('calls', changedArrival as string, { summary: 'A control changed an arrival.' });
  server.records.delete('calls', deletedArrival as string);

  // A second schedule: what the first brought stays, generated from it.
  server.setActivity({ ...ACTIVITY, callsPerMinute: 40 });
  server.clock.advance(5 * MINUTE);

  const key = server.createKey({ name: 'CI', quota: { requests: 500, perSeconds: 60 } });
  server.revokeKey(server.createKey({ name: 'Revoked later' }));
  server.createKey({ name: 'Expiring', expiresAt: server.clock.nowMs() + 30 * MINUTE });
  server.setKeyQuota(server.keys.valid, { requests: 400, perSeconds: 3600 });

  await post(server, audiencePath(server), { first_name: 'Grace', email: 'grace@example.com' });
  await post(server, leadPath(server), { phone_number: '+1 202 555 0142', customer_name: 'Lin' });
  server.clock.advance(2 * MINUTE);
  await post(server, leadPath(server), { phone_number: '(202) 555-0142', customer_name: 'Lin again' });
  server.injectLeadFailure(2);
  await post(server, leadPath(server), { phone_number: '+1 202 555 0199' });

  server.clock.advance(3 * MINUTE);
  // A window of the throttled key (5 requests per 5 seconds) with 3 requests counted.
  for (let i = 0; i < 3; i++) await get(server, '/v1/teams/', server.keys.throttled);
  return { server, key };
}

describe('a saved state, restored into a new server', () => {
  let original: Busy;
  let state: MockState;
  let restored: MockServer;
  /** What the restored server saves before anything else happens to it. */
  let savedAgain: unknown;

  beforeAll(async () => {
    original = await busyWorld();
    state = JSON.parse(JSON.stringify(original.server.saveState())) as MockState;
    restored = createMockServer({ state });
    savedAgain = JSON.parse(JSON.stringify(restored.saveState()));
  });

  it('holds every kind of change the world went through', () => {
    const [primary] = state.companies;
    // The two users deactivated and the one the control renamed (its full name follows), each with the
    // fields that changed.
    expect(Object.values(primary?.users?.changed ?? {})).toEqual([
      { is_active: false },
      { is_active: false },
      { last_name: 'Renamed', full_name: 'Zara Renamed' },
    ]);
    expect(primary?.users?.created).toHaveLength(1);
    expect(primary?.teams?.deleted).toHaveLength(1);
    expect(primary?.calls?.created).toHaveLength(2);
    expect(primary?.calls?.arrived).toHaveLength(2); // one group per schedule
    expect(primary?.calls?.arrived?.some((group) => (group.excused ?? []).length > 0)).toBe(true);
    expect(primary?.calls?.arrived?.some((group) => group.fields !== undefined)).toBe(true);
    expect(primary?.recordings?.arrived?.length).toBeGreaterThan(0);
    expect(state.activity).not.toBe(false);
    expect(state.leadFailures).toBe(1);
    expect(state.quota.windows.length).toBeGreaterThan(0);
    // The activity deleted and deactivated too (what the changes journal says it did).
    const kinds = new Set(
      original.server.changes().map((change) => `${change.origin} ${change.kind} ${change.resource}`),
    );
    expect(kinds).toContain('activity deleted calls');
    expect(kinds).toContain('activity updated users');
    expect(kinds).toContain('activity updated calls');
  });

  it('answers every list page and detail with the same bytes, read with a key created at run time', async () => {
    const [a, b] = [await everyBody(original.server, original.key), await everyBody(restored, original.key)];
    expect(a.length).toBeGreaterThan(100);
    expect(b).toEqual(a);
  });

  it('keeps the same keys, tokens, webhooks, members, leads, conversations and counts', () => {
    const { server } = original;
    expect(restored.keys).toEqual(server.keys);
    expect(restored.tokens).toEqual(server.tokens);
    expect(restored.apiKeys()).toEqual(server.apiKeys());
    expect(restored.webhooks()).toEqual(server.webhooks());
    expect(restored.members(server.tokens.audience)).toEqual(server.members(server.tokens.audience));
    expect(restored.leads()).toEqual(server.leads());
    expect(restored.conversations()).toEqual(server.conversations());
    expect(restored.recordCounts()).toEqual(server.recordCounts());
    expect(restored.activity()).toEqual(server.activity());
    expect(restored.clock.nowMs()).toBe(server.clock.nowMs());
    expect(restored.clock.frozen).toBe(true);
  });

  it('saves again to the same state', () => {
    expect(savedAgain).toEqual(state);
  });

  it('brings the same future: quota windows, lead failures, ids, keys and the activity', async () => {
    const { server } = original;
    const both = async <T>(act: (target: MockServer) => Promise<T> | T): Promise<[T, T]> => [
      await act(server),
      await act(restored),
    ];
    // The throttled key's window holds 3: two more pass, the third is refused.
    const [throttledA, throttledB] = await both(async (target) => {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++)
        statuses.push((await get(target, '/v1/teams/', target.keys.throttled)).status);
      return statuses;
    });
    expect(throttledA).toEqual([200, 200, 429]);
    expect(throttledB).toEqual(throttledA);
    // One injected lead failure is still to happen, then leads are queued again; a phone whose last lead
    // came 5 minutes ago joins its conversation.
    const [leadsA, leadsB] = await both(async (target) => {
      await post(target, leadPath(target), { phone_number: '+1 202 555 0100' });
      await post(target, leadPath(target), { phone_number: '+1 202 555 0101' });
      await post(target, leadPath(target), { phone_number: '+12025550142' });
      return target.leads().slice(-3);
    });
    expect(leadsA.map((lead) => [lead.status, lead.deduplicated])).toEqual([
      ['failed', false],
      ['queued', false],
      ['queued', true],
    ]);
    expect(leadsB).toEqual(leadsA);
    // The seeded run-time stream: the same ids and key values.
    const [createdA, createdB] = await both((target) => [
      target.records.create('calls', { source: 'integration' }),
      target.createKey({ name: 'After' }),
    ]);
    expect(createdB).toEqual(createdA);

    const before = server.journals.changes.stats().lastSeq;
    await both((target) => target.clock.advance(45 * MINUTE));
    const strip = (target: MockServer, since: number) =>
      target.changes({ since, limit: 10_000 }).map(({ seq: _seq, ...change }) => change);
    const future = strip(server, before);
    expect(future.filter((change) => change.origin === 'activity').length).toBeGreaterThan(20);
    expect(future.some((change) => change.kind === 'updated' && change.resource === 'calls')).toBe(true);
    expect(strip(restored, restored.journals.changes.stats().lastSeq - future.length)).toEqual(future);
    const [a, b] = await both((target) => everyBody(target, original.key));
    expect(b).toEqual(a);
  });
});

describe('a world made from a fixture, or reseeded', () => {
  it('is restored from the fixture or the seed and sizes in force', async () => {
    const fromFixture = createMockServer({ fixture: sampleFixture(), clock: 'frozen', seed: 4 });
    fromFixture.records.update('users', ADA, { is_active: false });
    fromFixture.records.create('calls', { user: { id: ADA } });
    const reseeded = createMockServer({ clock: 'frozen' });
    reseeded.reseed({ seed: 9, sizes: { users: 3, calls: 30 } });
    reseeded.records.create('teams', { name: 'After the reseed' });
    for (const server of [fromFixture, reseeded]) {
      const state = JSON.parse(JSON.stringify(server.saveState())) as MockState;
      const restored = createMockServer({ state });
      expect(await everyBody(restored, restored.keys.valid)).toEqual(
        await everyBody(server, server.keys.valid),
      );
    }
    expect(reseeded.saveState().options).toMatchObject({ seed: 9, sizes: { users: 3, teams: 4, calls: 30 } });
  });
});

describe('the clock of a restored state', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs on from the saved time when it was running', () => {
    // Real time faked: a running clock moves exactly as far as the test moves real time.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2031-01-01T00:00:00Z') });
    const server = createMockServer({ clock: 'running', now: '2026-03-01T00:00:00Z' });
    server.clock.advance(90 * MINUTE);
    const state = server.saveState();
    expect(new Date(state.clock.nowMs).toISOString()).toBe('2026-03-01T01:30:00.000Z');
    vi.setSystemTime(Date.parse('2031-01-01T00:00:07Z')); // the state kept for seven real seconds
    const restored = createMockServer({ state: JSON.parse(JSON.stringify(state)) });
    expect(restored.clock.frozen).toBe(false);
    // A running clock goes on from the saved time: not from the options' time (90 minutes before), nor by the
    // real seconds the state was kept; then by the real seconds after the restore.
    expect(restored.clock.now().toISOString()).toBe('2026-03-01T01:30:00.000Z');
    vi.setSystemTime(Date.parse('2031-01-01T00:00:09Z'));
    expect(restored.clock.now().toISOString()).toBe('2026-03-01T01:30:02.000Z');
    // reset() goes back to the options: the initial time.
    restored.reset();
    expect(restored.clock.now().toISOString()).toBe('2026-03-01T00:00:00.000Z');
  });
});

describe('latency and fault rates of a restored state', () => {
  it('go on with the same draws and the same faults left', async () => {
    const server = createMockServer({ seed: 3, clock: 'frozen' });
    server.setFaultRate([{ path: /^\/v1\/teams\//, rate: 0.5, mix: [{ status: 503 }], max: 6 }]);
    const statuses = async (target: MockServer, count: number) => {
      const seen: number[] = [];
      for (let i = 0; i < count; i++) seen.push((await get(target, '/v1/teams/', target.keys.valid)).status);
      return seen;
    };
    await statuses(server, 5);
    const restored = createMockServer({ state: JSON.parse(JSON.stringify(server.saveState())) });
    const [a, b] = [await statuses(server, 30), await statuses(restored, 30)];
    expect(a).toContain(503);
    expect(a).toContain(200);
    expect(b).toEqual(a);
  });
});

describe('the size of a state', () => {
  it('stays small for a default server with a few changes: under 8 KB', async () => {
    const server = createMockServer();
    const user = server.records.create('users', { first_name: 'Ada' });
    server.records.update('users', user.id, { is_active: false });
    server.records.create('calls', { user: { id: user.id } });
    const [call] = await oldest(server, 'calls', 1);
    server.records.update('calls', call as string, { is_excused: true });
    server.records.delete('recordings', (await oldest(server, 'recordings', 1))[0] as string);
    server.createKey({ name: 'CI' });
    await post(server, audiencePath(server), { email: 'grace@example.com' });
    await post(server, leadPath(server), { phone_number: '+1 202 555 0142' });
    const bytes = Buffer.byteLength(JSON.stringify(server.saveState()));
    // Measured: 6,194 bytes (4,386 with no change), most of it the nine API keys and the webhooks; none of
    // the 240 calls and 60 recordings of the seeded data is in it.
    expect(bytes).toBeLessThan(8 * 1024);
  });
});
