import { DEFAULT_JOURNAL_LIMIT } from '../../data/journal/limits.js';
import type { ApiKeyRecord } from '../../data/store/keys.js';
import { checkQuota, DEFAULT_QUOTA } from '../../data/store/quota.js';
import { faultRatesToJson, latencyToJson } from './routes.js';
import { saveCompanies } from './save-records.js';
import { MOCK_STATE_VERSION, type MockState } from './schema.js';
import type { World } from './world.js';

/**
 * A world's state (see {@link MockState}): a copy, sharing nothing with the world, ready for
 * `JSON.stringify`. The caller applies what the clock brought first.
 *
 * @param world - the world.
 * @returns the state.
 */
export function saveState(world: World): MockState {
  const { store, keys, tokens } = world.seeded;
  const runner = world.activity;
  const schedule = runner.schedule;
  const state: MockState = {
    version: MOCK_STATE_VERSION,
    options: saveOptions(world),
    clock: { nowMs: world.clock.nowMs(), frozen: world.clock.frozen },
    random: store.random.state,
    activity:
      runner.activity === false || schedule === undefined
        ? false
        : { activity: runner.activity, startMs: schedule.startMs, reachedMs: schedule.reachedMs },
    latency:
      world.chaos.latency === undefined
        ? false
        : {
            profile: latencyToJson(world.chaos.latency.profile) as never,
            stream: world.chaos.latency.stream,
          },
    faultRate:
      world.chaos.faultRates === undefined
        ? false
        : {
            rates: faultRatesToJson(world.chaos.faultRates.rates) as never,
            stream: world.chaos.faultRates.stream,
            remaining: world.chaos.faultRates.remaining.map((left) => (Number.isFinite(left) ? left : null)),
          },
    quota: { default: world.throttle.defaultQuota, windows: world.throttle.windows() },
    keys: { ...keys },
    tokens: { ...tokens },
    apiKeys: store.keys.all().map(saveKey),
    companies: saveCompanies(store),
    audiences: store.audiences.values().map((audience) => ({
      id: audience.id,
      company: audience.companyId,
      name: audience.name,
      token: audience.token,
      createdAtMs: audience.createdAt,
      members: audience.members,
    })),
    leadSources: store.leadSources.values().map((source) => ({
      id: source.id,
      company: source.companyId,
      name: source.name,
      token: source.token,
      deletedAtMs: source.deletedAt,
    })),
    leads: store.leads.all as MockState['leads'],
    conversations: store.leads.conversations.map((conversation) => ({
      id: conversation.id,
      company: conversation.companyId,
      leadSourceId: conversation.leadSourceId,
      phone: conversation.phone,
      createdAt: conversation.createdAt,
      lastLeadAt: conversation.lastLeadAt,
      leads: conversation.leads.map((lead) => lead.id),
    })),
    leadFailures: world.chaos.leadFailures,
  };
  // One deep copy: members, bodies and fields are the world's own objects until here.
  return structuredClone(state);
}

/** The options the world was made from: its data source, the clock's start and the options' controls. */
function saveOptions({ source, options, clock }: World): MockState['options'] {
  const journalLimit = options.journalLimit ?? DEFAULT_JOURNAL_LIMIT;
  return {
    seed: source.seed,
    sizes: { ...source.sizes },
    ...(source.fixture === undefined ? {} : { fixture: source.fixture }),
    nowMs: clock.initialMs(),
    clock: options.clock ?? 'running',
    activity: options.activity ?? false,
    quota: checkQuota(options.quota ?? options.throttle ?? DEFAULT_QUOTA, 'the option quota'),
    latency: options.latency === undefined ? false : (latencyToJson(options.latency) as never),
    faultRate: options.faultRate === undefined ? false : (faultRatesToJson(options.faultRate) as never),
    journalLimit: Number.isFinite(journalLimit) ? journalLimit : null,
  };
}

function saveKey(key: ApiKeyRecord): MockState['apiKeys'][number] {
  return {
    id: key.id,
    company: key.companyId,
    name: key.name,
    hash: key.hash,
    prefix: key.prefix,
    createdAtMs: key.createdAt,
    expiresAtMs: key.expiresAt,
    revoked: key.revoked,
    permissions: [...key.permissions],
    ...(key.quota === undefined ? {} : { quota: key.quota }),
  };
}
