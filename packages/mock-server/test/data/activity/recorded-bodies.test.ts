import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { MockServer, MockServerOptions } from '../../../src/index.js';
import { type EngineHarness, engineHarness } from '../../support/engine.js';
import { sampleFixture } from '../../support/fixture-sample.js';

// The bodies the mock answers, held byte for byte against bodies recorded from an earlier implementation:
// activity on a frozen clock moved several times (arrivals, excusals, recordings, deactivations, deletions,
// a change of activity) and records created, changed and deleted through the controls, on generated data
// and on a fixture. Each body is kept as a hash (a few whole, to read a difference); the changes feed is
// `changes()` as JSON.
//
// To record them again from the implementation in hand (only when a change of bodies is meant):
//   RECORD_BODIES=1 npx vitest run packages/mock-server/test/data/activity/recorded-bodies.test.ts

const RECORDED = new URL('./recorded-bodies.json', import.meta.url);
const MINUTE = 60_000;

/** What the file holds: per scenario, every body's label and hash in the order read; some bodies whole. */
interface Recorded {
  readonly hashes: Record<string, [label: string, hash: string][]>;
  /** Whole bodies (gzip, base64) by scenario and label. */
  readonly bodies: Record<string, Record<string, string>>;
}

/** Labels whose whole body the file keeps, beside its hash. */
const KEPT_WHOLE = /^last: (?:GET \/v1\/calls\/$|GET \/v1\/calls\/\w+\/transcript\/ #0$)/;

const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

class Reader {
  readonly hashes: [string, string][] = [];
  readonly bodies: Record<string, string> = {};
  #step = '';
  constructor(readonly h: EngineHarness) {}

  get server(): MockServer {
    return this.h.server;
  }

  step(name: string): void {
    this.#step = name;
  }

  keep(label: string, text: string): void {
    // An id is named by its first eight digits: enough to tell the records of one list apart.
    const full = `${this.#step}: ${label}`.replace(/([0-9a-f]{8})-[0-9a-f-]{27}/gi, '$1');
    this.hashes.push([full, hash(text)]);
    if (KEPT_WHOLE.test(full)) this.bodies[full] = gzipSync(text).toString('base64');
  }

  async get(path: string, note = ''): Promise<{ status: number; json: unknown }> {
    const response = await this.h.send({
      path: `/v1${path}`,
      headers: { authorization: `Bearer ${this.server.keys.valid}` },
    });
    this.keep(`GET /v1${path} ${note}`.trim(), `${response.status} ${response.text}`);
    return response;
  }

  changes(): void {
    this.keep('changes', JSON.stringify(this.server.changes()));
  }

  /** The lists, then details and transcripts of records the lists and the changes name. */
  async everything(): Promise<void> {
    const lists = [
      '/calls/',
      '/calls/?page=2&page_size=100',
      '/calls/?ordering=created_at&page=3&page_size=50',
      '/calls/?source=voice_agent',
      '/calls/?source=integration&page=2&page_size=100',
      '/users/',
      '/users/?is_active=true&page_size=100',
      '/users/?is_active=false&page_size=100',
      '/teams/?page_size=100',
      '/recordings/?page_size=100',
      '/recordings/?ordering=created_at&page_size=10',
    ];
    const ids = new Map<string, Set<string>>();
    const note = (resource: string, id: string) => {
      const set = ids.get(resource) ?? new Set<string>();
      ids.set(resource, set.add(id));
    };
    for (const path of lists) {
      const { json } = await this.get(path);
      const resource = path.split('/')[1] as string;
      for (const record of ((json as { data: { id: string }[] }).data ?? []).slice(0, 4))
        note(resource, record.id);
    }
    // The last changes name arrived, excused, deactivated and deleted records (deleted ones answer 404).
    for (const change of this.server.changes().slice(-40)) note(change.resource, change.id);
    for (const [resource, set] of ids) {
      let index = 0;
      for (const id of set) {
        await this.get(`/${resource}/${id}/`, `#${index}`);
        if (resource === 'calls' || resource === 'recordings')
          await this.get(`/${resource}/${id}/transcript/`, `#${index}`);
        index++;
      }
    }
    this.changes();
  }
}

const harnesses: EngineHarness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((h) => h.close()));
});

function reader(options: MockServerOptions): Reader {
  // Every change kept, as when these bodies were recorded (the change journal then kept 100,000).
  const h = engineHarness({ journalLimit: 100_000, ...options });
  harnesses.push(h);
  return new Reader(h);
}

/** Each scenario reads its bodies; the same seed and the same moves must give the same bytes. */
const SCENARIOS: Record<string, () => Promise<Reader>> = {
  /** Every kind of event over generated data beyond the size whose records are memoised. */
  activity: async () => {
    const r = reader({
      seed: 7,
      sizes: { users: 30, calls: 60_000, recordings: 200 },
      activity: {
        callsPerMinute: 120,
        excusedShare: 0.3,
        excusedAfterMinutes: { min: 1, max: 30 },
        recordingsPerHour: 120,
        deactivationsPerDay: 1440,
        callDeletionsPerHour: 600,
      },
    });
    const { clock } = r.server;
    r.step('7 min');
    clock.advance(7 * MINUTE);
    await r.everything();
    r.step('20 min 0.5 s');
    clock.advance(13 * MINUTE + 500);
    await r.everything();
    r.step('set back, then 1 h');
    clock.set(clock.nowMs() - 10 * MINUTE);
    clock.set(clock.nowMs() + 50 * MINUTE);
    await r.everything();
    r.step('last');
    r.server.setActivity({ callsPerMinute: 300, excusedShare: 0.5, excusedAfterMinutes: { min: 0, max: 2 } });
    clock.advance(9 * MINUTE + 123);
    await r.everything();
    return r;
  },
  /** Records created, changed and deleted through the controls, with activity around them. */
  controls: async () => {
    const r = reader({ seed: 3 });
    const { records, clock } = r.server;
    r.step('created');
    const ada = records.create('users', { first_name: 'Ada', last_name: 'Lovelace' });
    records.create('users', { is_active: false, permissions: [] });
    records.create('teams', { name: 'Night shift' });
    const visit = records.create('recordings', {
      user: { id: ada.id },
      start_time: '2026-06-01T09:00:00Z',
      audio_duration_seconds: 600,
    });
    records.create('recordings', { score: 1.5 });
    const booked = records.create('calls', { user: { id: ada.id }, source: 'voice_agent', is_booked: true });
    const excused = records.create('calls', { is_excused: true });
    records.create('calls', { is_excused: true, excused_at: '2026-06-01T11:00:00Z', excuse_reason: 'Spam' });
    records.create('calls', {
      id: 'F0000000-0000-4000-8000-00000000000A',
      created_at: '2026-05-01T08:00:00Z',
      summary: 'Given summary',
    });
    // In the future of the clock: arrivals sort before it.
    records.create('calls', { created_at: '2026-06-01T13:00:00Z' });
    await r.everything();
    r.step('changed');
    clock.advance(5 * MINUTE);
    const firstUser = (await r.get('/users/?ordering=created_at&page_size=1', 'oldest')).json as {
      data: { id: string }[];
    };
    records.update('users', firstUser.data[0]?.id as string, { is_active: false, first_name: 'Renamed' });
    records.update('users', ada.id, { last_name: 'Byron' });
    records.update('calls', booked.id, { summary: 'Changed summary', is_excused: true });
    records.update('calls', excused.id, { is_excused: false });
    records.update('recordings', visit.id, { score: 99.5 });
    records.delete('recordings', visit.id);
    const baseCall = (await r.get('/calls/?ordering=created_at&page_size=2', 'oldest')).json as {
      data: { id: string }[];
    };
    records.update('calls', baseCall.data[0]?.id as string, { is_excused: true, excuse_reason: 'Duplicate' });
    records.delete('calls', baseCall.data[1]?.id as string);
    await r.everything();
    r.step('last');
    r.server.setActivity({
      callsPerMinute: 60,
      excusedShare: 0.5,
      excusedAfterMinutes: { min: 1, max: 3 },
      callDeletionsPerHour: 0,
    });
    clock.advance(10 * MINUTE);
    const arrived = r.server.changes().filter((change) => change.origin === 'activity');
    const excusedByActivity = arrived.find((change) => change.kind === 'updated');
    if (excusedByActivity !== undefined) {
      records.update('calls', excusedByActivity.id, { is_excused: false });
      records.update('calls', excusedByActivity.id, { summary: 'Seen by a test', sentiment: 'negative' });
    }
    const created = arrived.filter((change) => change.kind === 'created' && change.resource === 'calls');
    const gone = created.at(-1)?.id as string;
    records.update('calls', created.at(-2)?.id as string, { score: 12.5 });
    records.delete('calls', gone);
    // The id of a deleted arrival, created again by a control.
    records.create('calls', { id: gone, summary: 'Back again' });
    clock.advance(3 * MINUTE);
    await r.everything();
    return r;
  },
  /** A fixture's company living by the clock, and changed by the controls. */
  fixture: async () => {
    const r = reader({
      fixture: sampleFixture(),
      seed: 5,
      activity: { callsPerMinute: 30, excusedShare: 0.4, excusedAfterMinutes: { min: 1, max: 5 } },
    });
    r.step('30 min');
    r.server.clock.advance(30 * MINUTE);
    await r.everything();
    r.step('last');
    const call = r.server.records.create('calls', { summary: 'A fixture call' });
    r.server.records.update('calls', call.id, { is_excused: true });
    r.server.clock.advance(15 * MINUTE);
    await r.everything();
    return r;
  },
};

/** The file's text, as the repository's formatter writes it: one body's label and hash a line. */
function recordedText({ hashes, bodies }: Recorded): string {
  const pairs = (list: [string, string][]) =>
    list.map(([label, value]) => `      [${JSON.stringify(label)}, ${JSON.stringify(value)}]`).join(',\n');
  const scenarios = Object.entries(hashes)
    .map(([name, list]) => `    ${JSON.stringify(name)}: [\n${pairs(list)}\n    ]`)
    .join(',\n');
  const kept = JSON.stringify({ bodies }, null, 2).slice(2, -2);
  return `{\n  "hashes": {\n${scenarios}\n  },\n${kept}\n}\n`;
}

describe('bodies stay byte for byte what they were for the same seed, clock moves and controls', () => {
  const recording = process.env.RECORD_BODIES === '1';
  const recorded: Recorded = existsSync(RECORDED)
    ? (JSON.parse(readFileSync(RECORDED, 'utf8')) as Recorded)
    : { hashes: {}, bodies: {} };

  it.each(Object.keys(SCENARIOS))('%s', async (name) => {
    const r = await (SCENARIOS[name] as () => Promise<Reader>)();
    expect(r.hashes.length).toBeGreaterThan(100);
    if (recording) {
      recorded.hashes[name] = r.hashes;
      recorded.bodies[name] = r.bodies;
      writeFileSync(RECORDED, recordedText(recorded));
      return;
    }
    // A whole body first, where one was kept: a difference reads better than a hash.
    for (const [label, body] of Object.entries(recorded.bodies[name] ?? {})) {
      const mine = r.bodies[label];
      expect(mine && gunzipSync(Buffer.from(mine, 'base64')).toString(), label).toBe(
        gunzipSync(Buffer.from(body, 'base64')).toString(),
      );
    }
    expect(r.hashes).toEqual(recorded.hashes[name]);
  });
});
