import { CallList, CallResponse } from '@company-data/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ActivityOptions, DEFAULT_NOW, type MockServer } from '../../../src/index.js';
import { type EngineHarness, engineHarness } from '../../support/engine.js';

// The mock's activity at the engine: server.handle() with a frozen clock (and fake timers for the running
// clock), so every count is exact. The counts, ids and times are those seed 11's schedule draws (the schedule
// alone is tested in test/data/activity/schedule.test.ts): stated here, not drawn again from it.

const MINUTE = 60_000;
const START = Date.parse(DEFAULT_NOW);
const SEED = 11;
/** Only arrivals, unless a test asks for more. */
const CALLS_ONLY: ActivityOptions = {
  callsPerMinute: 30,
  excusedShare: 0,
  recordingsPerHour: 0,
  deactivationsPerDay: 0,
  callDeletionsPerHour: 0,
};

const harnesses: EngineHarness[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(harnesses.splice(0).map((h) => h.close()));
});

function start(activity: ActivityOptions, clock: 'frozen' | 'running' = 'frozen'): EngineHarness {
  const h = engineHarness({ seed: SEED, activity, clock });
  harnesses.push(h);
  return h;
}

async function get(h: EngineHarness, path: string) {
  return h.send({ path: `/v1${path}`, headers: { authorization: `Bearer ${h.server.keys.valid}` } });
}

const count = async (h: EngineHarness, path = '/calls/') =>
  (await get(h, `${path}${path.includes('?') ? '&' : '?'}page_size=1`)).json.pagination.count;

/** Every page of a list, as text, newest first. */
async function wholeList(h: EngineHarness, path: string): Promise<string[]> {
  const pages: string[] = [];
  for (let page = 1; ; page++) {
    const response = await get(h, `${path}${path.includes('?') ? '&' : '?'}page_size=100&page=${page}`);
    if (response.json.data.length === 0) return pages;
    pages.push(response.text);
  }
}

const activityChanges = (server: MockServer) =>
  server.changes().filter((change) => change.origin === 'activity');

describe('engine: a company that lives by its clock', () => {
  it('creates exactly the calls the advanced minutes bring, newest first, with created_at at their time', async () => {
    const h = start(CALLS_ONLY);
    const before = await count(h);
    h.server.clock.advance(10 * MINUTE);
    // Ten minutes at 30 calls a minute: 288 calls, the last at 12:09:55.996.
    expect(await count(h)).toBe(before + 288);
    const newest = CallList.parse((await get(h, '/calls/?page_size=5')).json).data;
    const last = { id: 'e0bfbb14-1299-43a3-9439-e965473edb44' };
    expect(newest[0]?.id).toBe(last.id);
    // Its arrival to the whole second, written by the runtime's Date (the mock's own formatter is not used).
    expect(newest[0]?.created_at).toBe('2026-06-01T12:09:55Z');
    const changes = activityChanges(h.server);
    expect(changes).toHaveLength(288);
    expect(new Set(changes.map((change) => `${change.resource} ${change.kind}`))).toEqual(
      new Set(['calls created']),
    );
    expect(changes.at(-1)?.id).toBe(last.id);
    // A detail answers as any call, transcript included.
    expect(CallResponse.parse((await get(h, `/calls/${last.id}/`)).json).data.id).toBe(last.id);
    expect((await get(h, `/calls/${last.id}/transcript/`)).json.data.transcript.length).toBeGreaterThan(0);
  });

  it('gives the same records whatever the catch-ups in between (split windows, reads, controls)', async () => {
    const busy: ActivityOptions = {
      callsPerMinute: 40,
      excusedShare: 0.5,
      excusedAfterMinutes: { min: 1, max: 4 },
      recordingsPerHour: 120,
      deactivationsPerDay: 600,
      callDeletionsPerHour: 120,
    };
    const once = start(busy);
    once.server.clock.advance(10 * MINUTE);
    const split = start(busy);
    split.server.clock.advance(3 * MINUTE);
    await count(split);
    split.server.clock.advance(17);
    await count(split, '/users/');
    split.server.clock.advance(7 * MINUTE - 17);
    for (const path of ['/calls/', '/calls/?ordering=created_at', '/users/?is_active=true', '/recordings/']) {
      expect(await wholeList(split, path)).toEqual(await wholeList(once, path));
    }
    const strip = (server: MockServer) => activityChanges(server).map(({ seq: _seq, ...change }) => change);
    expect(strip(split.server)).toEqual(strip(once.server));
    expect(new Set(strip(once.server).map((change) => `${change.resource} ${change.kind}`))).toEqual(
      new Set(['calls created', 'calls updated', 'calls deleted', 'recordings created', 'users updated']),
    );
  });

  it('keeps its ids when a test creates records of its own meanwhile', async () => {
    const quiet = start(CALLS_ONLY);
    quiet.server.clock.advance(5 * MINUTE);
    await count(quiet);
    const busy = start(CALLS_ONLY);
    busy.server.records.create('calls', {});
    busy.server.clock.advance(2 * MINUTE);
    busy.server.records.create('calls', {});
    busy.server.clock.advance(3 * MINUTE);
    await count(busy);
    const ids = (server: MockServer) => activityChanges(server).map((change) => change.id);
    expect(ids(busy.server)).toEqual(ids(quiet.server));
    expect(ids(busy.server).length).toBeGreaterThan(100);
  });

  it('excuses a call later: its detail and the lists show it once the time has come', async () => {
    const activity: ActivityOptions = {
      ...CALLS_ONLY,
      excusedShare: 1,
      excusedAfterMinutes: { min: 2, max: 2 },
    };
    const h = start(activity);
    h.server.clock.advance(MINUTE);
    // The first call of the minute arrives at 12:00:02.182, to be excused two minutes later.
    const first = { id: '2b1d8da4-4e72-4562-b649-1bacb36b9b48' };
    expect((await get(h, `/calls/${first.id}/`)).json.data).toMatchObject({
      is_excused: false,
      excused_at: null,
      created_at: '2026-06-01T12:00:02Z',
    });
    h.server.clock.advance(2 * MINUTE);
    const excused = (await get(h, `/calls/${first.id}/`)).json.data;
    expect(excused.is_excused).toBe(true);
    expect(excused.excused_at).toBe('2026-06-01T12:02:02Z');
    expect(excused.excuse_reason).toEqual(expect.any(String));
    const listed = (await wholeList(h, '/calls/?ordering=created_at')).flatMap(
      (page) => JSON.parse(page).data,
    );
    expect(listed.find((call: { id: string }) => call.id === first.id)).toEqual(excused);
    expect(activityChanges(h.server).find((change) => change.kind === 'updated')).toMatchObject({
      id: first.id,
      resource: 'calls',
      fields: expect.arrayContaining(['is_excused', 'excused_at', 'excuse_reason']),
    });
  });

  it('skips the excusal of a call deleted meanwhile', async () => {
    const activity: ActivityOptions = {
      ...CALLS_ONLY,
      excusedShare: 1,
      excusedAfterMinutes: { min: 5, max: 5 },
    };
    const h = start(activity);
    h.server.clock.advance(MINUTE);
    const arrived = activityChanges(h.server).map((change) => change.id);
    for (const id of arrived) h.server.records.delete('calls', id);
    h.server.clock.advance(6 * MINUTE);
    expect((await get(h, `/calls/${arrived[0]}/`)).status).toBe(404);
    const excusals = activityChanges(h.server).filter((change) => change.kind === 'updated');
    expect(excusals.length).toBeGreaterThan(0);
    expect(excusals.filter((change) => arrived.includes(change.id))).toEqual([]);
  });

  it('deactivates active users: the is_active filters count them', async () => {
    const activity: ActivityOptions = { ...CALLS_ONLY, callsPerMinute: 0, deactivationsPerDay: 24 * 60 };
    const h = start(activity);
    expect(await count(h, '/users/?is_active=true')).toBe(8);
    expect(await count(h, '/users/?is_active=false')).toBe(4);
    // Four minutes bring ten deactivations: the eight active users go, and two find no one left to deactivate.
    h.server.clock.advance(4 * MINUTE);
    expect(await count(h, '/users/?is_active=true')).toBe(0);
    expect(await count(h, '/users/?is_active=false')).toBe(12);
    const changed = activityChanges(h.server).filter((change) => change.resource === 'users');
    expect(changed).toHaveLength(8);
    for (const change of changed)
      expect((await get(h, `/users/${change.id}/`)).json.data.is_active).toBe(false);
  });

  it('deletes calls: they answer 404 and leave every list', async () => {
    const activity: ActivityOptions = { ...CALLS_ONLY, callsPerMinute: 0, callDeletionsPerHour: 600 };
    const h = start(activity);
    expect(await count(h)).toBe(240);
    // Three minutes at ten deletions a minute: 24 calls deleted.
    h.server.clock.advance(3 * MINUTE);
    const deleted = activityChanges(h.server).filter((change) => change.kind === 'deleted');
    expect(deleted).toHaveLength(24);
    expect(await count(h)).toBe(216);
    const listed = new Set(
      (await wholeList(h, '/calls/')).flatMap((page) =>
        JSON.parse(page).data.map((call: { id: string }) => call.id),
      ),
    );
    for (const { id } of deleted) {
      expect((await get(h, `/calls/${id}/`)).status).toBe(404);
      expect(listed.has(id)).toBe(false);
    }
  });

  it('undoes nothing when the clock is set earlier, and resumes after the furthest time applied', async () => {
    const h = start(CALLS_ONLY);
    const before = await count(h);
    h.server.clock.advance(5 * MINUTE);
    const atFive = await count(h);
    h.server.clock.set(START + MINUTE);
    expect(await count(h)).toBe(atFive);
    h.server.clock.set(START + 5 * MINUTE);
    expect(await count(h)).toBe(atFive);
    h.server.clock.advance(MINUTE);
    // The first six minutes' calls, each once: 167.
    expect(await count(h)).toBe(before + 167);
    expect(activityChanges(h.server)).toHaveLength(167);
  });

  it('starts again from the initial time on reset, and from now on setActivity', async () => {
    const h = start(CALLS_ONLY);
    h.server.clock.advance(4 * MINUTE);
    const first = await wholeList(h, '/calls/');
    h.server.reset();
    h.server.clock.advance(4 * MINUTE);
    expect(await wholeList(h, '/calls/')).toEqual(first);
    const before = await count(h);
    h.server.setActivity(false);
    h.server.clock.advance(4 * MINUTE);
    expect(await count(h)).toBe(before);
    h.server.setActivity({ ...CALLS_ONLY, callsPerMinute: 120 });
    h.server.clock.advance(MINUTE);
    // The new schedule, from minute 8 at 120 calls a minute: 111 calls in its first minute.
    expect(await count(h)).toBe(before + 111);
  });

  it('starts the activity in force again from now on new data after reseed, from the new seed', async () => {
    const h = start(CALLS_ONLY);
    h.server.clock.advance(2 * MINUTE);
    h.server.reseed({ seed: 12 });
    const before = await count(h);
    h.server.clock.advance(MINUTE);
    // Seed 12's schedule from minute 2 (seed 11's first call of minute 2 would be another): 34 calls in the
    // minute, the first at 12:02:04.552, the last at 12:02:59.375.
    expect(await count(h)).toBe(before + 34);
    const ids = activityChanges(h.server).map((change) => change.id);
    expect(ids).toHaveLength(34);
    expect([ids[0], ids.at(-1)]).toEqual([
      '637b541c-89a8-4e10-9f70-8b669f818983',
      '013b9e92-1f26-4a01-aea7-8c6fcb7035f0',
    ]);
    const newest = CallList.parse((await get(h, '/calls/?page_size=1')).json).data;
    expect(newest[0]).toMatchObject({
      id: '013b9e92-1f26-4a01-aea7-8c6fcb7035f0',
      created_at: '2026-06-01T12:02:59Z',
    });
  });

  it('brings records in real time with the clock running', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(START);
    const h = start(CALLS_ONLY, 'running');
    const before = await count(h);
    vi.setSystemTime(START + 2 * MINUTE);
    // Two real minutes: 53 calls.
    expect(await count(h)).toBe(before + 53);
  });
});
