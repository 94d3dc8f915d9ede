import {
  createMockServer,
  type MockServer,
  type MockServerOptions,
  startMockServer,
} from '@company-data/mock-server';
import { Agent, type Dispatcher } from 'undici';
import { expect, vi } from 'vitest';
import { type ClientOptions, CompanyData, CompanyDataError, type Logger } from '../../src/index.js';
import { turn, until } from './turns.js';

/** How a test reaches the mock: in-process through its undici dispatcher, or over a loopback socket. */
export interface Target {
  readonly name: 'in-process' | 'loopback';
  start(options?: MockServerOptions): Promise<MockServer>;
  dispatcher(mock: MockServer): ClientOptions['dispatcher'];
}

/** Both ways; integration suites run once per entry (`describe.each(targets)`). */
export const targets: readonly Target[] = [
  {
    name: 'in-process',
    start: async (options) => createMockServer(options),
    dispatcher: (mock) => mock.dispatcher,
  },
  { name: 'loopback', start: (options) => startMockServer(options), dispatcher: () => undefined },
];

/** The records a default mock holds: what a list call that got through returns in full. */
export const DEFAULT_MOCK = { users: 12, teams: 4 } as const;

/**
 * A matcher for the first page of a list that fits on one page (of 25) and holds `count` records, each
 * with an id: what a call that got through (maybe after retries) returned.
 *
 * @example
 * ```ts
 * await expect(client.teams.list()).resolves.toMatchObject(wholeList(DEFAULT_MOCK.teams));
 * ```
 */
export function wholeList(count: number) {
  return {
    data: Array.from({ length: count }, () => expect.objectContaining({ id: expect.any(String) })),
    pagination: { count, page: 1, page_size: 25, total_pages: 1 },
  };
}

/** A logger that records every line, to assert on warnings and on what never gets logged. */
export function recordingLogger(): Logger & { lines: { level: string; args: unknown[] }[] } {
  const lines: { level: string; args: unknown[] }[] = [];
  const at =
    (level: string) =>
    (...args: unknown[]) => {
      lines.push({ level, args });
    };
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/**
 * Time that never really passes: the client's sleep advances the mock server's clock, and its clock is
 * the mock's, so waits (Retry-After, backoff) are instant yet the server sees them elapse.
 */
export function mockTime(mock: MockServer) {
  const sleeps: number[] = [];
  return {
    sleeps,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      mock.clock.advance(ms);
    },
    now: () => mock.clock.now().getTime(),
  };
}

/** Time the test advances by hand: each sleep stays pending until `release()` moves the mock clock. */
export function manualTime(mock: MockServer) {
  const pending: { ms: number; resolve: () => void }[] = [];
  return {
    pending,
    sleep: (ms: number) => new Promise<void>((resolve) => pending.push({ ms, resolve })),
    now: () => mock.clock.now().getTime(),
    release() {
      const next = pending.shift();
      if (!next) throw new Error('no pending sleep');
      mock.clock.advance(next.ms);
      next.resolve();
    },
  };
}

/** A client wired to the mock: its key, its base URL, its dispatcher (in-process), its clock. */
export function clientFor(
  target: Target,
  mock: MockServer,
  options: ClientOptions = {},
): { client: CompanyData; sleeps: number[]; logger: ReturnType<typeof recordingLogger> } {
  const time = mockTime(mock);
  const logger = recordingLogger();
  const client = new CompanyData({
    apiKey: mock.keys.valid,
    baseURL: mock.baseURL,
    dispatcher: target.dispatcher(mock),
    sleep: time.sleep,
    now: time.now,
    random: () => 0.5,
    logger,
    logLevel: 'debug',
    ...options,
  });
  return { client, sleeps: time.sleeps, logger };
}

/**
 * Runs a call with `setTimeout` faked, moving that fake time in small steps (real I/O runs between them)
 * until the call settles: a client timeout, or a mock's injected delay, passes without real waiting.
 *
 * @param maxSteps - the most steps: past them (`maxSteps × stepMs` of fake time), the call never settled
 * and the test fails, saying so.
 */
export async function inFakeTime<T>(call: () => PromiseLike<T>, stepMs = 10, maxSteps = 10_000): Promise<T> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  try {
    let settled = false;
    const promise = Promise.resolve(call());
    promise.then(
      () => {
        settled = true;
      },
      () => {
        settled = true;
      },
    );
    for (let step = 0; !settled; step++) {
      if (step === maxSteps)
        throw new Error(`the call did not settle in ${maxSteps * stepMs} ms of fake time`);
      await turn();
      await vi.advanceTimersByTimeAsync(stepMs);
    }
    return await promise;
  } finally {
    vi.useRealTimers();
  }
}

/** The SDK error a call fails with; anything else (or no failure) fails the test. */
export async function caught(promise: PromiseLike<unknown>): Promise<CompanyDataError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof CompanyDataError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

/** A request as it goes out: its path, and the `page` of a list request. */
export interface OutgoingRequest {
  readonly path: string;
  readonly page: number | undefined;
}

/**
 * Runs before each request goes out, so a test changes the mock's data between two page requests
 * deterministically (the server reads the list after the hook returned). A promise returned holds the
 * request until it settles (a page made late on purpose).
 */
export type RequestHook = (request: OutgoingRequest) => void | Promise<void>;

/**
 * A client wired to the mock (as {@link clientFor}) whose requests pass `hook` first; its `close()` also
 * closes the connection pool of a loopback target.
 */
export function clientWithHook(
  target: Target,
  mock: MockServer,
  hook: RequestHook,
  options: ClientOptions = {},
): ReturnType<typeof clientFor> {
  const agent = target.dispatcher(mock) === undefined ? new Agent() : undefined;
  const base = (target.dispatcher(mock) ?? agent) as Dispatcher;
  const dispatcher = base.compose(
    (dispatch) =>
      (request: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean => {
        const url = new URL(request.path, 'http://mock.invalid');
        const page = url.searchParams.get('page');
        const held = hook({ path: url.pathname, page: page === null ? undefined : Number(page) });
        if (!(held instanceof Promise)) return dispatch(request, handler);
        void held.then(() => dispatch(request, handler));
        return true;
      },
  );
  const harness = clientFor(target, mock, { dispatcher, ...options });
  const close = harness.client.close.bind(harness.client);
  harness.client.close = async () => {
    await close();
    await agent?.close();
  };
  return harness;
}

/** The page numbers of the calls list the mock received, in the order it received them (from its journal). */
export const callPagesRead = (mock: MockServer): number[] =>
  mock
    .journal()
    .filter((entry) => entry.path === '/v1/calls/')
    .map((entry) => Number(entry.query.page));

/**
 * A request hook that makes the calls list grow under pages already read: page 2's first request goes out
 * only once pages 3 and 4 were read and three calls arrived at the head of the list, so pages 3 and 4 are
 * stale by their turn.
 */
export function lateSecondPageAfterArrivals(mock: MockServer): RequestHook {
  return ({ path, page }) => {
    if (path !== '/v1/calls/' || page !== 2 || callPagesRead(mock).includes(2)) return undefined;
    return (async () => {
      await untilCallPagesRead(mock, [3, 4]);
      for (let n = 0; n < 3; n++) mock.records.create('calls');
    })();
  };
}

/** Waits, a bounded number of turns, until the mock received a request for each of `pages` of the calls list. */
export async function untilCallPagesRead(mock: MockServer, pages: readonly number[]): Promise<void> {
  await until(() => pages.every((page) => callPagesRead(mock).includes(page)));
}
