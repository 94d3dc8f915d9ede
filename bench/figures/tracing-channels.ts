/**
 * Figure 1c: what the SDK's tracing channels cost a call. With no subscriber, each call asks its channel and
 * each attempt asks the attempt channel whether anything listens, and goes its plain way: that check, timed
 * alone in a tight loop, is the figure. Whole requests of one client of the built `dist` files, as users
 * install them, then give what a subscriber costs, for information: `calls.list` requests in alternating
 * blocks with no subscriber, with a subscriber of every event of every channel (handlers that do nothing),
 * and with that subscriber binding an AsyncLocalStorage store to each channel's `start`, as an APM does.
 * The requests go to a `fetch` that answers at once from memory, as in figure 1b: the channels' work runs in
 * the SDK, on the client's CPU, and a socket would only add its noise.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import diagnostics_channel from 'node:diagnostics_channel';
import { TRACING_CHANNELS } from '@company-data/sdk';
// The check the SDK makes, from its one home: the built bundle holds the same function, and both ask the
// same named channels, which the runtime keeps one of per name.
import { subscribed } from '../../packages/sdk/src/core/telemetry/traced-work.js';
import { type FigureContext, ResultBuilder } from '../lib/figure.js';
import { builtSdkInMemory, EMPTY_PAGE, requestCosts, TIGHT_LOOP, tightLoopNs } from '../lib/observer-cost.js';
import { atMost, type FigureResult, measurement } from '../lib/result.js';
import { median } from '../lib/stats.js';
import { FIGURES } from './index.js';

const SPEC = FIGURES.find((f) => f.id === 'tracing-channels') as (typeof FIGURES)[number];
/** The bound on what a call pays for the channels when nothing listens. */
const LIMIT_US = 0.1;
const EVENTS = ['start', 'end', 'asyncStart', 'asyncEnd', 'error'] as const;

/** A subscriber of every event of every channel, its handlers doing nothing; with `store`, bound to each `start`. */
function subscribeAll(store?: AsyncLocalStorage<object>): () => void {
  const undo: (() => void)[] = [];
  for (const name of Object.values(TRACING_CHANNELS)) {
    const channel = diagnostics_channel.tracingChannel<object, object>(name);
    const handlers = Object.fromEntries(EVENTS.map((event) => [event, () => {}])) as never;
    channel.subscribe(handlers);
    undo.push(() => channel.unsubscribe(handlers));
    if (store !== undefined) {
      channel.start.bindStore(store, (context) => context);
      undo.push(() => channel.start.unbindStore(store));
    }
  }
  return () => {
    for (const step of undo.splice(0)) step();
  };
}

/** Runs figure 1c. */
export async function run(ctx: FigureContext): Promise<FigureResult> {
  const setup = builtSdkInMemory(ctx);
  const { rounds, count, warmup, client } = setup;
  const r = new ResultBuilder(SPEC);
  r.method(
    `The check a call makes with no subscriber (its channel's and its one attempt's hasSubscribers), in a tight ` +
      `loop of ${TIGHT_LOOP.toLocaleString('en-US')} calls per round, ${rounds} rounds, client CPU. Then sequential ` +
      `calls.list requests (validation off) through one client of the built SDK, answered at once by a fetch that ` +
      `returns an empty page (${EMPTY_PAGE.length} bytes) from memory: ${warmup} warm-up requests per variant, then ` +
      `${rounds} rounds of alternating blocks of up to ${count} requests per variant (each capped at 4 s); ` +
      `switching variant subscribes or unsubscribes, nothing else. A variant's cost is its client CPU per request ` +
      `minus that of "no subscriber" in the same round, median over rounds.`,
  );
  const store = new AsyncLocalStorage<object>();
  let unsubscribe = () => {};
  let state: 'off' | 'subscribed' | 'stored' = 'off';
  const into = (next: typeof state) => {
    if (state === next) return;
    unsubscribe();
    unsubscribe = () => {};
    if (next === 'subscribed') unsubscribe = subscribeAll();
    if (next === 'stored') unsubscribe = subscribeAll(store);
    state = next;
  };
  try {
    // What a call with one attempt asks when nothing listens, timed alone.
    let listened = 0;
    const perCall = tightLoopNs(['off'] as const, rounds, into, () => {
      if (subscribed('call') !== undefined) listened++;
      if (subscribed('attempt') !== undefined) listened++;
    });
    if (listened !== 0) throw new Error('a channel of the SDK had a subscriber during the tight loop');

    // Once, that the built SDK publishes its call on its channel.
    const seen: string[] = [];
    const probe = diagnostics_channel.tracingChannel<object, { operation: string }>(TRACING_CHANNELS.call);
    const record = { start: (c: { operation: string }) => seen.push(c.operation) };
    probe.start.subscribe(record.start as never);
    const page = (await setup.call()) as { pagination: { page: number } };
    probe.start.unsubscribe(record.start as never);
    if (page.pagination.page !== 1 || seen.join() !== 'listCalls')
      throw new Error(`the SDK did not publish its call: ${seen.join()}`);

    const { extraCpu, base } = await requestCosts(
      ctx,
      r,
      setup,
      {
        off: 'SDK calls.list, no subscriber',
        subscribed: 'SDK calls.list, a subscriber of every channel (handlers that do nothing)',
        stored: 'SDK calls.list, that subscriber binding an AsyncLocalStorage store to each start',
      },
      into,
      (name) =>
        name === 'subscribed'
          ? 'a subscriber of every channel − no subscriber, whole request: client CPU'
          : 'a subscriber with a store bound to each start − no subscriber, whole request: client CPU',
    );
    const checkNs = r.measure(
      measurement(
        'the check of a call with one attempt, no subscriber (tight loop)',
        'CPU ns/call',
        perCall.off,
      ),
    ).median;
    r.check(
      atMost(
        'tracing.no-subscriber',
        "What a call pays for the tracing channels when nothing listens: its channel's and its attempt's check, timed alone",
        checkNs / 1000,
        LIMIT_US,
        'µs',
      ),
    );
    r.note(
      `With no subscriber a call asks two tracing channels (its own and its attempt's) whether anything listens, ` +
        `and builds no context: ${checkNs.toFixed(1)} ns a call. A subscriber of every event of every channel ` +
        `(a call and its attempt: ten events) adds ${extraCpu.subscribed.toFixed(2)} µs of client CPU a request; binding ` +
        `an AsyncLocalStorage store to each start as well, ${extraCpu.stored.toFixed(2)} µs (the SDK itself costs ` +
        `${median(base.cpu).toFixed(1)} µs a request here without a socket).`,
    );
    await client.close();
    return r.build();
  } finally {
    unsubscribe();
  }
}
