/**
 * A mock that lives for hours of its own time, as figures 12a and 12b run it: the `company-data-mock` command
 * (from the sources, one bundled file run by plain node, as the tests run it) on a frozen clock, moved an
 * hour at a time through the admin API; after each move, its memory (after a full garbage collection) and
 * records as the admin summary reports them, and how fast its lists answer over HTTP.
 */
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Dispatcher, request } from 'undici';
import { type MockCli, mockCliFromSource, startMockCli } from '../../scripts/lib/mock-cli.mjs';
import type { Variant } from './loop.js';
import { median, rotate } from './stats.js';

/** What the figures read of the admin summary (`GET /__admin/`). */
interface Summary {
  memory: { rss: number; heapUsed: number; heapTotal: number; arrayBuffers: number };
  records: { calls: number; arrived: number }[];
  journals: { requests: { held: number; dropped: number }; changes: { held: number; dropped: number } };
}

/** The mock at one moment of its run. */
export interface Checkpoint {
  /** Hours of mock time moved so far. */
  hour: number;
  /** Resident set size, bytes (read after a full collection; where the lists are timed, after them). */
  rss: number;
  /** JavaScript heap in use, bytes (garbage not yet collected included). */
  heapUsed: number;
  /** JavaScript heap reserved, bytes. */
  heapTotal: number;
  /** Memory of ArrayBuffers (the arrivals' typed arrays, the page cache's bytes), bytes. */
  arrayBuffers: number;
  /** Calls of the primary company. */
  calls: number;
  /** Calls and recordings the activity brought, still there. */
  arrived: number;
  /** Changes the change journal dropped so far. */
  changesDropped: number;
  /** How long the move's events took to apply (the first request after it), ms. */
  catchUpMs: number;
  /** How fast each list answered, when timed. */
  lists: Record<string, ListSpeed>;
}

/** How fast a list answers: the mock's CPU µs per request, and the wall µs per request the client saw. */
export interface ListSpeed {
  cpu: number;
  wall: number;
}

/** The clock ticks a second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * The CPU time a process has used so far, user and system, in µs (Linux: /proc/<pid>/stat).
 *
 * @param pid - the process.
 */
function cpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The fields after the command's name (which may hold spaces) start with the third, its state: utime
  // and stime are the 14th and 15th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / TICKS_PER_SECOND;
}

/** A run's checkpoints, and the memory of the process as it started (before any list was read). */
export interface LongRun {
  /** RSS right after the command printed its line, bytes. */
  coldRss: number;
  /** At the start (after the warm-up: lists read, the page cache filled) and after every hour. */
  points: Checkpoint[];
}

/** How a figure runs the mock. */
export interface LongRunOptions {
  /** The command's arguments besides `--port 0 --json`. */
  args: readonly string[];
  /** Hours of mock time, moved one at a time. */
  hours: number;
  /** Whether to time the lists after each hour (always at the start and the end). */
  timeEveryHour: boolean;
  /** Interleaved rounds per timing, and requests per round of each list. */
  rounds: number;
  count: number;
  /** Called with each checkpoint as it is taken. */
  log(message: string): void;
}

/** The mock time the warm-up moves the clock by. */
export const WARM_UP_MS = 5 * 60_000;

/** Makes the mock's process collect its garbage on SIGUSR2 (see the file). */
const COLLECT_ON_SIGNAL = new URL('./collect-on-signal.mjs', import.meta.url).href;

/** Pages each list cycles through: more than the mock's page cache keeps (1,000), so every read does the work. */
const SPREAD = 2_000;

/**
 * The lists timed: the newest calls (what arrivals change), the oldest (seeded), a filtered list, and, as the
 * yardstick of the machine's speed in the same rounds, a page answered from the page cache.
 */
function lists(get: (path: string) => Promise<unknown>, totalPages: () => number): Record<string, Variant> {
  const cycle = (from: () => number, size: number) => {
    let offset = 0;
    return () => {
      const page = from() + offset;
      offset = (offset + 1) % size;
      return page;
    };
  };
  const newest = cycle(() => 1, SPREAD);
  // Full pages only: the last page of a list is short.
  const oldest = cycle(() => totalPages() - SPREAD + 1, SPREAD);
  const filtered = cycle(() => 1, 1_000);
  return {
    newest: { label: `/calls/ pages 1–${SPREAD}, newest first`, op: () => get(`/calls/?page=${newest()}`) },
    oldest: {
      label: `/calls/ the last ${SPREAD} pages (the oldest, seeded calls)`,
      op: () => get(`/calls/?page=${oldest()}`),
    },
    filtered: {
      label: '/calls/?source=voice_agent pages 1–1,000',
      op: () => get(`/calls/?source=voice_agent&page=${filtered()}`),
    },
    // The same request answered from the page cache: what HTTP and the machine cost, without building a page.
    cached: { label: '/calls/ page 1, from the page cache', op: () => get('/calls/?page=1') },
  };
}

/**
 * Runs the mock for `hours` of its time and returns a checkpoint at the start and after every hour.
 *
 * @param options - the command's arguments, the hours, the timings.
 * @param dispatcher - a keep-alive pool of one connection, for sequential requests.
 */
export async function longRun(options: LongRunOptions, dispatcher: Dispatcher): Promise<LongRun> {
  const [node = process.execPath, bundle = ''] = mockCliFromSource();
  const cli: MockCli<{ baseURL: string; apiRoot: string; adminToken: string; keys: { valid: string } }> =
    await startMockCli({
      command: [node, '--expose-gc', `--import=${COLLECT_ON_SIGNAL}`, bundle],
      args: options.args,
    });
  try {
    const { baseURL, apiRoot, adminToken, keys } = cli.summary;
    const admin = async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> => {
      const response = await request(`${apiRoot}/__admin/${path}`, {
        method,
        dispatcher,
        headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (response.statusCode !== 200) throw new Error(`${path}: ${response.statusCode}`);
      return response.body.json();
    };
    let calls = 0;
    const get = async (path: string) => {
      const response = await request(`${baseURL}${path}&page_size=25`, {
        dispatcher,
        headers: { authorization: `Bearer ${keys.valid}` },
      });
      const body = (await response.body.json()) as { data: unknown[]; pagination: { count: number } };
      if (response.statusCode !== 200 || body.data.length !== 25)
        throw new Error(`unexpected answer for ${path}: ${response.statusCode}`);
      return body;
    };
    const variants = lists(get, () => Math.floor(calls / 25));
    /**
     * The lists timed in interleaved rounds, each round starting with another list: per list, the mock's
     * CPU µs per request over all rounds (read from /proc: a shared machine's other work barely moves it) and
     * the median of the rounds' wall µs per request.
     */
    const time = async (rounds: number): Promise<Record<string, ListSpeed>> => {
      const totals: Record<string, { cpu: number; requests: number; walls: number[] }> = {};
      for (const variant of Object.values(variants)) for (let i = 0; i < 20; i++) await variant.op();
      for (let round = 0; round < rounds; round++) {
        for (const [name, variant] of rotate(Object.entries(variants), round)) {
          const cpuBefore = cpuMicros(cli.child.pid as number);
          const started = performance.now();
          for (let request = 0; request < options.count; request++) await variant.op();
          const wall = ((performance.now() - started) * 1000) / options.count;
          const total = totals[name] ?? { cpu: 0, requests: 0, walls: [] };
          total.cpu += cpuMicros(cli.child.pid as number) - cpuBefore;
          total.requests += options.count;
          total.walls.push(wall);
          totals[name] = total;
        }
      }
      return Object.fromEntries(
        Object.entries(totals).map(([name, total]) => [
          name,
          { cpu: total.cpu / total.requests, wall: median(total.walls) },
        ]),
      );
    };
    /**
     * Memory as the mock holds it: read after a full garbage collection in its process, so that a reading
     * does not hang on what garbage its last requests left (an hour's events, or the figure's own pages).
     */
    const collected = async (): Promise<Summary> => {
      cli.child.kill('SIGUSR2');
      await sleep(500);
      return (await admin('GET', '')) as Summary;
    };
    const checkpoint = async (hour: number, catchUpMs: number, timed: boolean): Promise<Checkpoint> => {
      // Where the lists are timed (the start and the end), the memory is read after them, so that both
      // readings follow the same requests: what the activity adds is the difference.
      // Collected before the timings too: what the hour's events left is not collected on the lists' time.
      calls = (await collected()).records[0]?.calls ?? 0;
      const lists = timed ? await time(options.rounds) : {};
      const summary = timed ? await collected() : ((await admin('GET', '')) as Summary);
      const primary = summary.records[0] ?? { calls: 0, arrived: 0 };
      const point: Checkpoint = {
        hour,
        rss: summary.memory.rss,
        heapUsed: summary.memory.heapUsed,
        heapTotal: summary.memory.heapTotal,
        arrayBuffers: summary.memory.arrayBuffers,
        calls: primary.calls,
        arrived: primary.arrived,
        changesDropped: summary.journals.changes.dropped,
        catchUpMs,
        lists,
      };
      const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
      options.log(
        `hour ${hour}: rss ${mb(point.rss)}, heap ${mb(point.heapUsed)} of ${mb(point.heapTotal)}, array buffers ${mb(point.arrayBuffers)}, ` +
          `${point.calls} calls (${point.arrived} arrived), catch-up ${catchUpMs.toFixed(0)} ms` +
          (timed
            ? `, lists (mock CPU / wall µs) ${Object.values(lists)
                .map((speed) => `${speed.cpu.toFixed(0)}/${speed.wall.toFixed(0)}`)
                .join(' ')}`
            : ''),
      );
      return point;
    };
    const cold = await collected();
    calls = cold.records[0]?.calls ?? 0;
    // Warm up: the lists read as they will be (the JIT compiles) and five minutes of the activity applied, so
    // that the heap has its working size (its young generation grows under the first bursts) before the start.
    await time(1);
    await admin('POST', 'clock/advance', { ms: WARM_UP_MS });
    calls = ((await admin('GET', '')) as Summary).records[0]?.calls ?? 0;
    await time(1);
    const points = [await checkpoint(0, 0, true)];
    for (let hour = 1; hour <= options.hours; hour++) {
      await admin('POST', 'clock/advance', { ms: 3_600_000 });
      // The move's events are applied before the next request: time that one.
      const started = performance.now();
      await admin('GET', 'clock');
      const catchUpMs = performance.now() - started;
      points.push(await checkpoint(hour, catchUpMs, options.timeEveryHour || hour === options.hours));
    }
    return { coldRss: cold.memory.rss, points };
  } finally {
    await cli.stop();
  }
}
