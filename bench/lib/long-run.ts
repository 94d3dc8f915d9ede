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

/** How fast a list answers: the mock's main thread's CPU µs per request, and the wall µs the client saw. */
export interface ListSpeed {
  cpu: number;
  wall: number;
}

/**
 * The CPU time the main thread of a process has run so far, in µs (Linux: the first field of
 * /proc/<pid>/schedstat, in nanoseconds): where the mock builds its pages, and most of its collections run.
 *
 * @param pid - the process.
 */
function cpuMicros(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1000;
}

/** A run's checkpoints, and the memory of the process as it started (before any list was read). */
export interface LongRun {
  /** RSS right after the command printed its line, bytes. */
  coldRss: number;
  /** At the start (after the warm-up) and after every hour. */
  points: Checkpoint[];
  /** With `againstFresh`: the lists of a fresh mock, timed in the same rounds as the last checkpoint's. */
  freshLists?: Record<string, ListSpeed>;
}

/** How a figure runs the mock. */
export interface LongRunOptions {
  /** The command's arguments besides `--port 0 --json`. */
  args: readonly string[];
  /** Hours of mock time, moved one at a time. */
  hours: number;
  /** Whether to time the lists after each hour (always at the start and the end). */
  timeEveryHour: boolean;
  /** Whether to time the last hour's lists together with a fresh mock's. */
  againstFresh?: boolean;
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

/** A `company-data-mock` command started for a figure, reached over HTTP, its garbage collected on demand. */
class RunningMock {
  readonly #cli: MockCli<Started>;
  readonly #dispatcher: Dispatcher;
  /** Calls of the primary company, as last read (the oldest pages are counted from it). */
  calls = 0;
  readonly variants: Record<string, Variant>;

  private constructor(cli: MockCli<Started>, dispatcher: Dispatcher) {
    this.#cli = cli;
    this.#dispatcher = dispatcher;
    const { baseURL, keys } = cli.summary;
    this.variants = lists(
      async (path) => {
        const response = await request(`${baseURL}${path}&page_size=25`, {
          dispatcher,
          headers: { authorization: `Bearer ${keys.valid}` },
        });
        const body = (await response.body.json()) as { data: unknown[] };
        if (response.statusCode !== 200 || body.data.length !== 25)
          throw new Error(`unexpected answer for ${path}: ${response.statusCode}`);
        return body;
      },
      () => Math.floor(this.calls / 25),
    );
  }

  /** Starts the command (its node able to collect on SIGUSR2) with these arguments besides `--port 0 --json`. */
  static async start(args: readonly string[], dispatcher: Dispatcher): Promise<RunningMock> {
    const [node = process.execPath, bundle = ''] = mockCliFromSource();
    const cli = await startMockCli<Started>({
      command: [node, '--expose-gc', `--import=${COLLECT_ON_SIGNAL}`, bundle],
      args,
    });
    return new RunningMock(cli, dispatcher);
  }

  get pid(): number {
    return this.#cli.child.pid as number;
  }

  async admin(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
    const { apiRoot, adminToken } = this.#cli.summary;
    const response = await request(`${apiRoot}/__admin/${path}`, {
      method,
      dispatcher: this.#dispatcher,
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (response.statusCode !== 200) throw new Error(`${path}: ${response.statusCode}`);
    return response.body.json();
  }

  /** The admin summary, the calls read from it. */
  async summary(): Promise<Summary> {
    const summary = (await this.admin('GET', '')) as Summary;
    this.calls = summary.records[0]?.calls ?? 0;
    return summary;
  }

  /**
   * The summary after a full garbage collection in the mock's process, so that a reading does not hang on
   * what garbage its last requests left (an hour's events, or the figure's own pages).
   */
  async collected(): Promise<Summary> {
    this.#cli.child.kill('SIGUSR2');
    await sleep(500);
    return this.summary();
  }

  /** Moves the clock; returns how long the next request took to apply what the move brought, ms. */
  async advance(ms: number): Promise<number> {
    await this.admin('POST', 'clock/advance', { ms });
    const started = performance.now();
    await this.summary();
    return performance.now() - started;
  }

  /**
   * The warm-up: the lists read as they will be (the JIT compiles) and five minutes of the activity applied,
   * so that the heap has its working size (its young generation grows under the first bursts).
   */
  async warmUp(count: number): Promise<void> {
    await this.summary();
    await timeLists([this], 1, count);
    await this.advance(WARM_UP_MS);
    await timeLists([this], 1, count);
  }

  stop(): Promise<number | null> {
    return this.#cli.stop();
  }
}

/** What `company-data-mock --json` prints, as far as the figures read it. */
interface Started {
  baseURL: string;
  apiRoot: string;
  adminToken: string;
  keys: { valid: string };
}

/**
 * Times the lists of several mocks in interleaved rounds: each round runs every list on every mock, starting
 * with another list and another mock, so that a slower phase of the shared machine meets them all. Per mock
 * and list, the medians of the rounds': the mock's CPU µs per request (its main thread's, from /proc) and the
 * wall µs per request.
 */
async function timeLists(
  mocks: readonly RunningMock[],
  rounds: number,
  count: number,
): Promise<Record<string, ListSpeed>[]> {
  const runs = mocks.map(() => new Map<string, { cpu: number[]; wall: number[] }>());
  const names = Object.keys(mocks[0]?.variants ?? {});
  for (const mock of mocks)
    for (const variant of Object.values(mock.variants)) for (let i = 0; i < 20; i++) await variant.op();
  for (let round = 0; round < rounds; round++) {
    for (const name of rotate(names, round)) {
      for (const index of rotate([...mocks.keys()], round)) {
        const mock = mocks[index] as RunningMock;
        const variant = mock.variants[name] as Variant;
        const cpuBefore = cpuMicros(mock.pid);
        const started = performance.now();
        for (let request = 0; request < count; request++) await variant.op();
        const run = runs[index]?.get(name) ?? { cpu: [], wall: [] };
        run.wall.push(((performance.now() - started) * 1000) / count);
        run.cpu.push((cpuMicros(mock.pid) - cpuBefore) / count);
        runs[index]?.set(name, run);
      }
    }
  }
  return runs.map((byName) =>
    Object.fromEntries(
      [...byName].map(([name, run]) => [name, { cpu: median(run.cpu), wall: median(run.wall) }]),
    ),
  );
}

/**
 * Runs the mock for `hours` of its time and returns a checkpoint at the start and after every hour. With
 * `againstFresh`, the lists after the last hour are timed together with those of a fresh mock (the same
 * arguments and warm-up), in the same rounds.
 *
 * @param options - the command's arguments, the hours, the timings.
 * @param dispatcher - a keep-alive pool of one connection, for sequential requests.
 */
export async function longRun(options: LongRunOptions, dispatcher: Dispatcher): Promise<LongRun> {
  const mock = await RunningMock.start(options.args, dispatcher);
  let fresh: RunningMock | undefined;
  try {
    let freshLists: Record<string, ListSpeed> | undefined;
    const checkpoint = async (hour: number, catchUpMs: number, timed: boolean): Promise<Checkpoint> => {
      // Collected before the timings: what the hour's events left is not collected on the lists' time. Where
      // the lists are timed (the start and the end), the memory is read after them, so that both readings
      // follow the same requests: what the activity adds is the difference.
      await mock.collected();
      let lists: Record<string, ListSpeed> = {};
      if (timed && fresh !== undefined) {
        await fresh.collected();
        const [aged, other] = await timeLists([mock, fresh], options.rounds, options.count);
        lists = aged ?? {};
        freshLists = other;
      } else if (timed) lists = (await timeLists([mock], options.rounds, options.count))[0] ?? {};
      const summary = timed ? await mock.collected() : await mock.summary();
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
    const cold = await mock.collected();
    await mock.warmUp(options.count);
    const points = [await checkpoint(0, 0, true)];
    for (let hour = 1; hour <= options.hours; hour++) {
      const catchUpMs = await mock.advance(3_600_000);
      const last = hour === options.hours;
      if (last && options.againstFresh) {
        fresh = await RunningMock.start(options.args, dispatcher);
        await fresh.warmUp(options.count);
      }
      points.push(await checkpoint(hour, catchUpMs, options.timeEveryHour || last));
    }
    return { coldRss: cold.memory.rss, points, ...(freshLists === undefined ? {} : { freshLists }) };
  } finally {
    await fresh?.stop();
    await mock.stop();
  }
}
