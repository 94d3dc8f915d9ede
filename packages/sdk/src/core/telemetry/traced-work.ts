import { AsyncLocalStorage } from 'node:async_hooks';
import * as diagnostics from 'node:diagnostics_channel';
import { stoppedBy } from './call-spans.js';
import {
  TRACING_CHANNELS,
  type TracingContext,
  type TracingOutcome,
  tracedError,
} from './tracing-channels.js';
import type { Settable } from './tracing-contexts.js';

// How the SDK publishes on its tracing channels (`tracing-channels.ts` names them and their contexts). The
// channels are made once, where the runtime has `tracingChannel` (Node, Bun, Deno); a piece of work asks
// `subscribed(kind)` before it builds anything, and takes its plain path when nothing listens: a few
// property reads. With a subscriber, the events follow `tracePromise()`'s order (start, end, then error,
// asyncStart, asyncEnd), with the work run inside `start.runStores()` so that a store bound to `start` is
// active for it, but the context never gets the work's `result`: a response holds the caller's data.

/** One of the five channels of a tracing channel, as far as the SDK uses it. */
interface EventChannel {
  readonly hasSubscribers: boolean;
  publish(message: unknown): void;
  runStores<T>(context: object, fn: () => T): T;
}

/** A tracing channel, as far as the SDK uses it. Bun's has no `hasSubscribers` of its own. */
export interface TracingChannelLike {
  readonly hasSubscribers?: boolean | undefined;
  readonly start: EventChannel;
  readonly end: EventChannel;
  readonly asyncStart: EventChannel;
  readonly asyncEnd: EventChannel;
  readonly error: EventChannel;
}

/** The kinds of work the SDK traces, each on its channel. */
export type TracingKind = keyof typeof TRACING_CHANNELS;

const make = (diagnostics as { tracingChannel?: (name: string) => TracingChannelLike }).tracingChannel;

/** The channels, made once (each holds its five channels); none where the runtime has no `tracingChannel`. */
const CHANNELS: Readonly<Record<TracingKind, TracingChannelLike>> | undefined =
  typeof make === 'function'
    ? {
        call: make(TRACING_CHANNELS.call),
        attempt: make(TRACING_CHANNELS.attempt),
        page: make(TRACING_CHANNELS.page),
        walk: make(TRACING_CHANNELS.walk),
        sync: make(TRACING_CHANNELS.sync),
      }
    : undefined;

/**
 * The channel of `kind` when anything listens to it (a subscriber, or a store bound to one of its
 * channels), else `undefined`: then the work takes its plain path and builds no context. The tracing
 * channel's own `hasSubscribers` where the runtime has it (Node, Deno), else its five channels' (Bun).
 */
export function subscribed(kind: TracingKind): TracingChannelLike | undefined {
  const channel = CHANNELS?.[kind];
  return channel !== undefined && listened(channel) ? channel : undefined;
}

/** Whether anything listens to a tracing channel: its own `hasSubscribers`, else (Bun) any of its five channels'. */
export function listened(channel: TracingChannelLike): boolean {
  return channel.hasSubscribers ?? anyListens(channel);
}

function anyListens(channel: TracingChannelLike): boolean {
  return (
    channel.start.hasSubscribers ||
    channel.end.hasSubscribers ||
    channel.asyncStart.hasSubscribers ||
    channel.asyncEnd.hasSubscribers ||
    channel.error.hasSubscribers
  );
}

/**
 * One piece of work published on its channel: {@link WorkTrace.begin} around its synchronous part,
 * {@link WorkTrace.settle} once it settled. For work that is one promise, {@link traced} does both.
 *
 * @typeParam Context - the channel's context type.
 */
export class WorkTrace<Context extends TracingContext> {
  /** The context every event of the work carries; the SDK sets its end fields before settling. */
  readonly context: Settable<Context>;
  readonly #channel: TracingChannelLike;

  /**
   * @param channel - the channel, which {@link subscribed} gave.
   * @param context - the work's context.
   */
  constructor(channel: TracingChannelLike, context: Settable<Context>) {
    this.#channel = channel;
    this.context = context;
  }

  /**
   * Publishes `start`, runs `work` with the stores bound to `start` active (and everything it starts, in
   * its async continuations), then publishes `end` once `work` returned.
   */
  begin<T>(work: () => T): T {
    const channel = this.#channel;
    const context = this.context;
    return channel.start.runStores(context, () => {
      try {
        return work();
      } finally {
        channel.end.publish(context);
      }
    });
  }

  /**
   * The work settled: `error` when it failed (the context's `outcome` then `error`, its `error` a
   * {@link TracedError}; an abort is `stopped`, with no `error` event), then `asyncStart` and `asyncEnd`.
   *
   * @param error - what it failed with; `undefined` when it did not.
   * @param outcome - the outcome when it did not fail, `ok` unless given (an iteration left early: `stopped`).
   */
  settle(error?: unknown, outcome?: TracingOutcome): void {
    const channel = this.#channel;
    const context = this.context;
    if (error === undefined) context.outcome = outcome ?? 'ok';
    else if (stoppedBy(error)) context.outcome = 'stopped';
    else {
      context.outcome = 'error';
      context.error = tracedError(error);
      channel.error.publish(context);
    }
    channel.asyncStart.publish(context);
    channel.asyncEnd.publish(context);
  }
}

/**
 * Runs `work` as one piece of work on `channel`, as `tracePromise()` does, without a `result` on the context.
 *
 * @param work - the work, given its context to fill in (it never throws: a refusal is a rejected promise).
 */
export function traced<Context extends TracingContext, T>(
  channel: TracingChannelLike,
  context: Settable<Context>,
  work: (context: Settable<Context>) => Promise<T>,
): Promise<T> {
  const trace = new WorkTrace<Context>(channel, context);
  return trace.begin(() =>
    work(context).then(
      (value) => {
        trace.settle();
        return value;
      },
      (error: unknown) => {
        trace.settle(error);
        throw error;
      },
    ),
  );
}

/** Runs a function in the async context captured when it was made. */
type ContextRunner = <T>(fn: () => T) => T;

/**
 * The async context now, every store included, to run functions in later: `AsyncLocalStorage.snapshot()`
 * where the runtime has it (Node 20, Bun, Deno), else a runner that keeps the caller's.
 */
function snapshot(): ContextRunner {
  return typeof AsyncLocalStorage.snapshot === 'function' ? AsyncLocalStorage.snapshot() : runAsIs;
}

function runAsIs<T>(fn: () => T): T {
  return fn();
}

/**
 * Work spread over many turns of its caller (a list iterated, a sync run, driven by their consumer's
 * `next()`): `start` and `end` as it begins, and the async context of that moment kept, so that the stores
 * bound to `start` are active for each piece of it run through {@link IterationTrace.run} (its pages),
 * whatever context its consumer resumes it from.
 *
 * @typeParam Context - the channel's context type.
 */
export class IterationTrace<Context extends TracingContext> {
  readonly #trace: WorkTrace<Context>;
  readonly #run: ContextRunner;

  /**
   * Publishes `start` and `end`.
   *
   * @param channel - the channel, which {@link subscribed} gave.
   * @param context - the iteration's context.
   */
  constructor(channel: TracingChannelLike, context: Settable<Context>) {
    this.#trace = new WorkTrace<Context>(channel, context);
    this.#run = this.#trace.begin(snapshot);
  }

  /** The context its events carry. */
  get context(): Settable<Context> {
    return this.#trace.context;
  }

  /** Runs `fn` in the iteration's async context (its stores active). */
  run<T>(fn: () => T): T {
    return this.#run(fn);
  }

  /**
   * The iteration ended: `error`, `asyncStart` and `asyncEnd`, in its async context.
   *
   * @param error - what it failed with, if it did.
   * @param outcome - `stopped` when it was left early.
   */
  end(error: unknown, outcome: TracingOutcome | undefined): void {
    this.#run(() => this.#trace.settle(error, outcome));
  }
}
