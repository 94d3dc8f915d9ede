import { CallList, CallResponse } from '@company-data/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveActivity } from '../../../src/data/activity/options.js';
import { activityEvents } from '../../../src/data/activity/schedule.js';
import { type ActivityOptions, DEFAULT_NOW, type MockServer } from '../../../src/index.js';
import { type EngineHarness, engineHarness } from '../../support/engine.js';

// The mock's activity at the engine: server.handle() with a frozen clock (and fake timers for the running
// clock), so every count is exact. The schedule alone is tested in test/activity/schedule.test.ts.

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

/** The events the schedule has for the first `minutes` of a server's activity. */
function scheduled(activity: ActivityOptions, minutes: number) {
  return activityEvents(SEED, resolveActivity(activity), START, START, START + minutes * MINUTE);
}

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
    const arrivals = scheduled(CALLS_ONLY, 10).filter((event) => event.kind === 'call');
    expect(arrivals.length).toBeGreaterThan(250);
    expect(await count(h)).toBe(before + arrivals.length);
    const newest = CallList.parse((await get(h, '/calls/?page_size=5')).json).data;
    const last = arrivals.at(-1) as { id: string; atMs: number };
    expect(newest[0]?.id).toBe(last.id);
    // Its arrival to the whole second, written by the runtime's Date (the mock's own formatter is not used).
    expect(newest[0]?.created_at).toBe(
      new Date(Math.floor(last.atMs / 1000) * 1000).toISOString().replace('.000', ''),
    );
    expect(activityChanges(h.server).map((change) => [change.kind, change.id])).toEqual(
      arrivals.map((event) => ['created', event.kind === 'call' && event.id]),
    );
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
    const first = scheduled(activity, 1).find((event) => event.kind === 'call') as {
      id: string;
      atMs: number;
    };
    expect((await get(h, `/calls/${first.id}/`)).json.data).toMatchObject({
      is_excused: false,
      excused_at: null,
    });
    h.server.clock.advance(2 * MINUTE);
    const excused = (await get(h, `/calls/${first.id}/`)).json.data;
    expect(excused.is_excused).toBe(true);
    expect(Date.parse(excused.excused_at)).toBeGreaterThanOrEqual(
      Math.floor((first.atMs + 2 * MINUTE) / 1000) * 1000 - 1000,
    );
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
    const active = await count(h, '/users/?is_active=true');
    const inactive = await count(h, '/users/?is_active=false');
    h.server.clock.advance(4 * MINUTE);
    const deactivations = scheduled(activity, 4).filter((event) => event.kind === 'deactivation').length;
    expect(deactivations).toBeGreaterThan(0);
    const gone = Math.min(deactivations, active);
    expect(await count(h, '/users/?is_active=true')).toBe(active - gone);
    expect(await count(h, '/users/?is_active=false')).toBe(inactive + gone);
    const changed = activityChanges(h.server).filter((change) => change.resource === 'users');
    expect(changed).toHaveLength(gone);
    for (const change of changed)
      expect((await get(h, `/users/${change.id}/`)).json.data.is_active).toBe(false);
  });

  it('deletes calls: they answer 404 and leave every list', async () => {
    const activity: ActivityOptions = { ...CALLS_ONLY, callsPerMinute: 0, callDeletionsPerHour: 600 };
    const h = start(activity);
    const before = await count(h);
    h.server.clock.advance(3 * MINUTE);
    const deleted = activityChanges(h.server).filter((change) => change.kind === 'deleted');
    expect(deleted.length).toBe(scheduled(activity, 3).filter((event) => event.kind === 'deletion').length);
    expect(deleted.length).toBeGreaterThan(10);
    expect(await count(h)).toBe(before - deleted.length);
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
    const arrivals = scheduled(CALLS_ONLY, 6).filter((event) => event.kind === 'call').length;
    expect(await count(h)).toBe(before + arrivals);
    expect(activityChanges(h.server)).toHaveLength(arrivals);
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
    const arrivals = activityEvents(
      SEED,
      resolveActivity({ ...CALLS_ONLY, callsPerMinute: 120 }),
      START + 8 * MINUTE,
      START + 8 * MINUTE,
      START + 9 * MINUTE,
    ).length;
    expect(await count(h)).toBe(before + arrivals);
  });

  it('starts the activity in force again from now on new data after reseed, from the new seed', async () => {
    const h = start(CALLS_ONLY);
    h.server.clock.advance(2 * MINUTE);
    h.server.reseed({ seed: 12 });
    const before = await count(h);
    h.server.clock.advance(MINUTE);
    const from = START + 2 * MINUTE;
    const arrivals = activityEvents(12, resolveActivity(CALLS_ONLY), from, from, from + MINUTE);
    expect(arrivals.length).toBeGreaterThan(10);
    expect(await count(h)).toBe(before + arrivals.length);
    expect(activityChanges(h.server).map((change) => change.id)).toEqual(
      arrivals.map((event) => event.kind === 'call' && event.id),
    );
  });

  it('brings records in real time with the clock running', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(START);
    const h = start(CALLS_ONLY, 'running');
    const before = await count(h);
    vi.setSystemTime(START + 2 * MINUTE);
    const arrivals = scheduled(CALLS_ONLY, 2).filter((event) => event.kind === 'call').length;
    expect(await count(h)).toBe(before + arrivals);
  });
});
