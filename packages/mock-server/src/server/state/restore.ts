import { resolveActivity } from '../../data/activity/options.js';
import { ActivitySchedule } from '../../data/activity/schedule.js';
import type { MockClock } from '../../data/clock.js';
import { Prng } from '../../data/random/prng.js';
import { createAudience, emailKey } from '../../data/store/audiences.js';
import type { ApiKeyRecord } from '../../data/store/keys.js';
import type { Conversation, Lead } from '../../data/store/leads.js';
import { FaultRateTable } from '../../serve/engine/faults.js';
import { LatencyTable } from '../../serve/engine/latency.js';
import { atPath } from './error.js';
import { type ArrivingOf, restoreCompanies } from './restore-records.js';
import { faultRatesFromJson, latencyFromJson } from './routes.js';
import type { MockState } from './schema.js';
import type { World } from './world.js';

/**
 * Puts a validated state into a world just made from the state's options (see `withState`): the clock,
 * the activity's place, the run-time random stream, keys, quotas, latency and fault rates, record changes,
 * audiences, lead sources, leads and lead failures. No activity is applied meanwhile, and nothing is
 * journaled.
 *
 * @param world - the world, as its options made it.
 * @param state - the state, validated by `parseState`.
 * @throws MockStateError naming the part that does not fit the world (the world is then unusable).
 */
export function restoreState(world: World, state: MockState): void {
  const { store } = world.seeded;
  const { seed } = world.source;
  const runner = world.activity;
  // Stopped first: setting the clock applies what the activity brought up to then, which must be nothing.
  runner.start(seed, false, 0);
  atPath('clock', () => restoreClock(world.clock, state.clock));
  const { activity } = state;
  if (activity !== false)
    atPath('activity', () => runner.resume(seed, activity.activity, activity.startMs, activity.reachedMs));
  store.random = new Prng(state.random);

  const keys = state.apiKeys.map((key, index) =>
    atPath(`apiKeys[${index}].company`, (): ApiKeyRecord => {
      store.companyById(key.company);
      return {
        id: key.id,
        companyId: key.company,
        name: key.name,
        hash: key.hash,
        prefix: key.prefix,
        createdAt: key.createdAtMs,
        expiresAt: key.expiresAtMs,
        revoked: key.revoked,
        permissions: new Set(key.permissions),
        quota: key.quota,
      };
    }),
  );
  atPath('apiKeys', () => store.keys.replaceAll(keys));
  world.seeded.keys = { ...state.keys };
  world.seeded.tokens = { ...state.tokens };
  atPath('quota.default', () => world.throttle.configure(state.quota.default));
  world.throttle.restoreWindows(state.quota.windows);

  const { latency, faultRate } = state;
  world.chaos.latency = atPath('latency', () =>
    latency === false ? undefined : new LatencyTable(latencyFromJson(latency.profile), seed, latency.stream),
  );
  world.chaos.faultRates = atPath('faultRate', () =>
    faultRate === false
      ? undefined
      : new FaultRateTable(faultRatesFromJson(faultRate.rates), seed, {
          stream: faultRate.stream,
          remaining: faultRate.remaining.map((left) => left ?? Number.POSITIVE_INFINITY),
        }),
  );

  restoreCompanies(store, state.companies, arrivingOf(world));
  restoreWebhooks(world, state);
  world.chaos.leadFailures = state.leadFailures;
}

/** The clock at the saved time, frozen or running (a running clock runs on from it, from now). */
function restoreClock(clock: MockClock, saved: MockState['clock']): void {
  if (saved.frozen) clock.freeze();
  else clock.resume();
  clock.set(saved.nowMs);
}

/** The arrivals of each saved schedule: the runner's own for the schedule in force, else made again. */
function arrivingOf(world: World): ArrivingOf {
  const schedules = new Map<string, ActivitySchedule>();
  const current = world.activity.schedule;
  const inForce = world.activity.activity;
  return (saved, kind) => {
    const activity = resolveActivity(saved.activity);
    const key = `${saved.startMs} ${JSON.stringify(activity)}`;
    let schedule = schedules.get(key);
    if (schedule === undefined) {
      schedule =
        current !== undefined &&
        inForce !== false &&
        current.startMs === saved.startMs &&
        JSON.stringify(resolveActivity(inForce)) === JSON.stringify(activity)
          ? current
          : new ActivitySchedule(world.source.seed, activity, saved.startMs);
      schedules.set(key, schedule);
    }
    return kind === 'call' ? schedule.calls : schedule.recordings;
  };
}

/** The audiences with their members, the lead sources, the leads and their conversations. */
function restoreWebhooks(world: World, state: MockState): void {
  const { store } = world.seeded;
  store.audiences.clear();
  state.audiences.forEach((saved, index) => {
    atPath(`audiences[${index}]`, () => {
      store.companyById(saved.company);
      const audience = createAudience({
        id: saved.id,
        companyId: saved.company,
        name: saved.name,
        token: saved.token,
        createdAt: saved.createdAtMs,
      });
      for (const member of saved.members) {
        audience.members.push(member);
        if (member.phone) audience.byPhone.set(member.phone, member);
        if (member.email) audience.byEmail.set(emailKey(member.email), member);
      }
      store.audiences.add(audience);
    });
  });
  store.leadSources.clear();
  state.leadSources.forEach((saved, index) => {
    atPath(`leadSources[${index}]`, () => {
      store.companyById(saved.company);
      store.leadSources.add({
        id: saved.id,
        companyId: saved.company,
        name: saved.name,
        token: saved.token,
        deletedAt: saved.deletedAtMs,
      });
    });
  });
  const leads: Lead[] = state.leads.map((lead) => ({ ...lead }));
  const byId = new Map(leads.map((lead) => [lead.id, lead]));
  const conversations = state.conversations.map(
    (saved, index): Conversation => ({
      id: saved.id,
      companyId: saved.company,
      leadSourceId: saved.leadSourceId,
      phone: saved.phone,
      createdAt: saved.createdAt,
      lastLeadAt: saved.lastLeadAt,
      leads: saved.leads.map((id, at) =>
        atPath(`conversations[${index}].leads[${at}]`, () => {
          const lead = byId.get(id);
          if (lead === undefined) throw new Error(`no lead has id "${id}"`);
          return lead;
        }),
      ),
    }),
  );
  store.leads.restore(leads, conversations);
}
