import type { MockServer } from '@company-data/mock-server';
import { afterEach, describe, expect, it } from 'vitest';
import { subscribed } from '../../../src/core/telemetry/traced-work.js';
import { RequestAbortedError } from '../../../src/index.js';
import { clientFor, clientWithHook, type Target, targets } from '../../support/harness.js';
import { type Kind, recordTracing, type TracingRecorder } from '../../support/tracing.js';

// The SDK's tracing channels (`diagnostics_channel.tracingChannel`), seen by a subscriber to all five that
// binds a store to each one's `start`, against the mock: every piece of work's events in order, the stores
// active inside it, and undici's own `undici:request:create` inside the attempt that sent it (over a socket
// only: the in-process dispatcher is no undici client, so undici publishes nothing for it).
//
// An event reads `<channel>:<event> <work>`: `walk`, `sync`, `p3` (page 3), `p3#2` (its attempt 2), the
// operation for a call and `<operation>#1` for its attempt; `asyncEnd` and `error` add the context's outcome,
// status, error code, hedge, attempts and pages. `undici:create in …` lists the work whose stores are active.

/** The hedge threshold: no backoff (500 ms × 0.5 jitter) or 429 pause is as long. */
const AFTER_MS = 777;

const loopback = targets.find((target) => target.name === 'loopback') as Target;

let recorder: TracingRecorder | undefined;
const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  recorder?.stop();
  recorder = undefined;
  for (const resource of opened.splice(0)) await resource.close();
});

async function start(target: Target, options: Parameters<Target['start']>[0] = {}): Promise<MockServer> {
  const mock = await target.start({ clock: 'frozen', quota: false, ...options });
  opened.push(mock);
  return mock;
}

describe('the order of the events (loopback, with undici’s)', () => {
  it('a walk with a retry, a 429 pause and a hedge: each page inside the walk, each attempt inside its page, undici inside each attempt', async () => {
    const mock = await start(loopback, { sizes: { users: 2, calls: 20 } });
    const seen = new Set<number>();
    let fireHedge = () => {};
    const hedgeFired = new Promise<void>((resolve) => {
      fireHedge = resolve;
    });
    // Page 2's first request meets a 503, page 3's a 429 (Retry-After: 1); page 4's first copy is held
    // before it goes out, its hedge's wait ends, and the second copy answers.
    const { client } = clientWithHook(
      loopback,
      mock,
      ({ path, page }) => {
        if (path !== '/v1/calls/' || page === undefined || seen.has(page)) return undefined;
        seen.add(page);
        if (page === 2) mock.injectFault({ path: '/v1/calls/', status: 503 });
        if (page === 3)
          mock.injectFault({ path: '/v1/calls/', status: 429, headers: { 'retry-after': '1' } });
        if (page !== 4) return undefined;
        fireHedge();
        return new Promise<void>(() => {});
      },
      {
        hedge: { afterMs: AFTER_MS },
        // The hedge's wait ends when page 4's first copy is held; every other wait moves the mock's clock.
        sleep: (ms: number) => {
          if (ms === AFTER_MS) return hedgeFired;
          mock.clock.advance(ms);
          return Promise.resolve();
        },
      },
    );
    opened.push(client);
    recorder = recordTracing({ undici: true });

    const calls = await client.calls.list({ page_size: 5 }).toArray();

    expect(calls).toHaveLength(20);
    expect(recorder.events).toEqual([
      'walk:start walk',
      'walk:end walk',
      'page:start p1',
      'page:end p1',
      'attempt:start p1#1',
      'undici:create in p1#1 p1 walk',
      'attempt:end p1#1',
      'attempt:asyncStart p1#1',
      'attempt:asyncEnd p1#1 ok 200',
      'page:asyncStart p1',
      'page:asyncEnd p1 ok 200 attempts:1',
      'page:start p2',
      'page:end p2',
      'attempt:start p2#1',
      'undici:create in p2#1 p2 walk',
      'attempt:end p2#1',
      'attempt:error p2#1 error 503 server_error',
      'attempt:asyncStart p2#1',
      'attempt:asyncEnd p2#1 error 503 server_error',
      'attempt:start p2#2',
      'undici:create in p2#2 p2 walk',
      'attempt:end p2#2',
      'attempt:asyncStart p2#2',
      'attempt:asyncEnd p2#2 ok 200',
      'page:asyncStart p2',
      'page:asyncEnd p2 ok 200 attempts:2',
      'page:start p3',
      'page:end p3',
      'attempt:start p3#1',
      'undici:create in p3#1 p3 walk',
      'attempt:end p3#1',
      'attempt:error p3#1 error 429 rate_limited',
      'attempt:asyncStart p3#1',
      'attempt:asyncEnd p3#1 error 429 rate_limited',
      'attempt:start p3#2',
      'undici:create in p3#2 p3 walk',
      'attempt:end p3#2',
      'attempt:asyncStart p3#2',
      'attempt:asyncEnd p3#2 ok 200',
      'page:asyncStart p3',
      'page:asyncEnd p3 ok 200 attempts:2',
      'page:start p4',
      'page:end p4',
      'attempt:start p4#1',
      // The first copy is held before undici sees it; the second copy goes out after the hedge's wait, in
      // the attempt's stores still.
      'attempt:end p4#1',
      'undici:create in p4#1 p4 walk',
      'attempt:asyncStart p4#1',
      'attempt:asyncEnd p4#1 ok 200 hedge:hedge',
      'page:asyncStart p4',
      'page:asyncEnd p4 ok 200 attempts:1',
      'walk:asyncStart walk',
      'walk:asyncEnd walk ok pages:4',
    ]);
    // The mock saw what the events say: page 2 twice (a 503, then 200), page 3 twice (a 429, then 200).
    expect(mock.journal().map((entry) => [Number(entry.query.page), entry.status])).toEqual([
      [1, 200],
      [2, 503],
      [2, 200],
      [3, 429],
      [3, 200],
      [4, 200],
    ]);
  });

  it('a call that retries: its attempts inside it, undici inside each attempt with the call’s store and the attempt’s', async () => {
    const mock = await start(loopback);
    const { client } = clientFor(loopback, mock);
    opened.push(client);
    const [user] = await client.users.list().toArray({ limit: 1 });
    mock.injectFault({ path: `/v1/users/${user?.id}/`, status: 503 });
    recorder = recordTracing({ undici: true });

    await client.users.retrieve(String(user?.id));

    expect(recorder.events).toEqual([
      'call:start retrieveUser',
      'call:end retrieveUser',
      'attempt:start retrieveUser#1',
      'undici:create in retrieveUser retrieveUser#1',
      'attempt:end retrieveUser#1',
      'attempt:error retrieveUser#1 error 503 server_error',
      'attempt:asyncStart retrieveUser#1',
      'attempt:asyncEnd retrieveUser#1 error 503 server_error',
      'attempt:start retrieveUser#2',
      'undici:create in retrieveUser retrieveUser#2',
      'attempt:end retrieveUser#2',
      'attempt:asyncStart retrieveUser#2',
      'attempt:asyncEnd retrieveUser#2 ok 200',
      'call:asyncStart retrieveUser',
      'call:asyncEnd retrieveUser ok 200 attempts:2',
    ]);
    // Outside the call, no store of the SDK's channels is active.
    expect(recorder.active()).toBe('');
  });
});

describe.each(targets)('the events of each kind of work ($name)', (target: Target) => {
  it('a sync run: its pages inside it, each with its attempt', async () => {
    const mock = await start(target, { sizes: { users: 2, calls: 20 } });
    const { client } = clientFor(target, mock);
    opened.push(client);
    recorder = recordTracing();

    const changes = [];
    for await (const change of client.calls.sync({ params: { page_size: 10 } })) changes.push(change);

    expect(changes).toHaveLength(20);
    expect(recorder.events).toEqual([
      'sync:start sync',
      'sync:end sync',
      'page:start p1',
      'page:end p1',
      'attempt:start p1#1',
      'attempt:end p1#1',
      'attempt:asyncStart p1#1',
      'attempt:asyncEnd p1#1 ok 200',
      'page:asyncStart p1',
      'page:asyncEnd p1 ok 200 attempts:1',
      'page:start p2',
      'page:end p2',
      'attempt:start p2#1',
      'attempt:end p2#1',
      'attempt:asyncStart p2#1',
      'attempt:asyncEnd p2#1 ok 200',
      'page:asyncStart p2',
      'page:asyncEnd p2 ok 200 attempts:1',
      'sync:asyncStart sync',
      'sync:asyncEnd sync ok pages:2',
    ]);
  });

  it('a walk left early ends stopped, with no error; a list page awaited alone is a call', async () => {
    const mock = await start(target, { sizes: { users: 2, calls: 20 } });
    const { client } = clientFor(target, mock);
    opened.push(client);
    recorder = recordTracing();

    await client.calls.list({ page_size: 5 }).toArray({ limit: 7 });
    await client.calls.list({ page_size: 5 });

    expect(recorder.events).toEqual([
      'walk:start walk',
      'walk:end walk',
      'page:start p1',
      'page:end p1',
      'attempt:start p1#1',
      'attempt:end p1#1',
      'attempt:asyncStart p1#1',
      'attempt:asyncEnd p1#1 ok 200',
      'page:asyncStart p1',
      'page:asyncEnd p1 ok 200 attempts:1',
      'page:start p2',
      'page:end p2',
      'attempt:start p2#1',
      'attempt:end p2#1',
      'attempt:asyncStart p2#1',
      'attempt:asyncEnd p2#1 ok 200',
      'page:asyncStart p2',
      'page:asyncEnd p2 ok 200 attempts:1',
      'walk:asyncStart walk',
      'walk:asyncEnd walk stopped pages:2',
      'call:start listCalls p1',
      'call:end listCalls p1',
      'attempt:start p1#1',
      'attempt:end p1#1',
      'attempt:asyncStart p1#1',
      'attempt:asyncEnd p1#1 ok 200',
      'call:asyncStart listCalls p1',
      'call:asyncEnd listCalls p1 ok 200 attempts:1',
    ]);
  });

  it('a call refused before sending fails with no attempt; an aborted call is stopped, with no error', async () => {
    const mock = await start(target);
    const { client } = clientFor(target, mock);
    opened.push(client);
    recorder = recordTracing();

    await expect(client.users.retrieve('x', { timout: 5 } as never)).rejects.toMatchObject({
      code: 'invalid_option',
    });
    const aborted = new AbortController();
    aborted.abort();
    const id = '00000000-0000-4000-8000-000000000000';
    await expect(client.users.retrieve(id, { signal: aborted.signal })).rejects.toBeInstanceOf(
      RequestAbortedError,
    );

    expect(recorder.events).toEqual([
      'call:start retrieveUser',
      'call:end retrieveUser',
      'call:error retrieveUser error invalid_option attempts:0',
      'call:asyncStart retrieveUser',
      'call:asyncEnd retrieveUser error invalid_option attempts:0',
      // The transport refuses to send for an aborted signal: the attempt, and so the call, is stopped.
      'call:start retrieveUser',
      'call:end retrieveUser',
      'attempt:start retrieveUser#1',
      'attempt:end retrieveUser#1',
      'attempt:asyncStart retrieveUser#1',
      'attempt:asyncEnd retrieveUser#1 stopped',
      'call:asyncStart retrieveUser',
      'call:asyncEnd retrieveUser stopped attempts:1',
    ]);
  });
});

describe('with no subscriber', () => {
  it('no channel of the SDK is listened to, so every piece of work takes its plain path', () => {
    const kinds: Kind[] = ['call', 'attempt', 'page', 'walk', 'sync'];
    expect(kinds.map((kind) => subscribed(kind))).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    recorder = recordTracing();
    expect(kinds.filter((kind) => subscribed(kind) !== undefined)).toEqual(kinds);
    recorder.stop();
    expect(kinds.filter((kind) => subscribed(kind) !== undefined)).toEqual([]);
  });
});
