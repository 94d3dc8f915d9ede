import type { OperationMeta } from '@company-data/contract/runtime';
import { endTelemetry, spanName } from './call-spans.js';
import { type CallTelemetry, TELEMETRY, telemetrySink } from './sink.js';
import { IterationTrace, subscribed } from './traced-work.js';
import type { SyncContext, WalkContext } from './tracing-channels.js';
import { syncContext, walkContext } from './tracing-contexts.js';

// A list iterated or a sync run, as what observes the SDK sees it: its span (when an instrumentation
// registered a sink) and its events on the `walk` or `sync` tracing channel (when something listens). Its
// pages go under it (`list-pages.ts` opens each page's span as its child and sends it through `run()`), and
// both end in one place, the same way.

/** The operation an iteration reads. */
type IteratedOperation = Pick<OperationMeta, 'operationId' | 'method' | 'path'>;

/** What its pages are read with. */
interface IterationOptions {
  readonly concurrency: number;
  readonly readAhead: number;
}

/** A list iterated or a sync run: what its pages are read under. */
export class Iteration {
  /** Its span, when an instrumentation registered a sink: its pages' spans are its children. */
  readonly telemetry: CallTelemetry | undefined;
  readonly #trace: IterationTrace<WalkContext> | IterationTrace<SyncContext> | undefined;

  /**
   * @param telemetry - its span.
   * @param trace - its events on its tracing channel.
   */
  constructor(
    telemetry: CallTelemetry | undefined,
    trace: IterationTrace<WalkContext> | IterationTrace<SyncContext> | undefined,
  ) {
    this.telemetry = telemetry;
    this.#trace = trace;
  }

  /** Whether its tracing channel has its events: its pages are then sent through {@link Iteration.run}. */
  get traced(): boolean {
    return this.#trace !== undefined;
  }

  /** Runs `fn` (the sending of one of its pages) with the stores bound to its channel's `start` active. */
  run<T>(fn: () => T): T {
    return this.#trace === undefined ? fn() : this.#trace.run(fn);
  }

  /**
   * Ends its span and its events: failed with `failure`; else `ok` when it was iterated to its end,
   * `stopped` when it was left early.
   *
   * @param pages - pages it yielded (a sync: pages it read).
   */
  end(failure: unknown, complete: boolean, pages: number): void {
    const outcome = failure === undefined && !complete ? 'stopped' : undefined;
    if (this.telemetry !== undefined) {
      endTelemetry(this.telemetry, failure, { [TELEMETRY.pages]: pages, [TELEMETRY.outcome]: outcome });
    }
    if (this.#trace !== undefined) {
      this.#trace.context.pages = pages;
      this.#trace.end(failure, outcome);
    }
  }
}

/**
 * Begins the iteration of a list: the `<resource>.list iterate` span, the `walk` channel's `start`.
 *
 * @param options - the list's read options.
 */
export function startWalk(
  operation: IteratedOperation,
  options: IterationOptions & { readonly ordered: boolean },
): Iteration {
  const telemetry = telemetrySink()?.start(`${spanName(operation)} iterate`, 'walk', {
    [TELEMETRY.operation]: operation.operationId,
    [TELEMETRY.concurrency]: options.concurrency,
    [TELEMETRY.readAhead]: options.readAhead,
    [TELEMETRY.ordered]: options.ordered,
  });
  const channel = subscribed('walk');
  const trace =
    channel === undefined
      ? undefined
      : new IterationTrace<WalkContext>(channel, walkContext(operation, options));
  return new Iteration(telemetry, trace);
}

/**
 * Begins a run of `sync()`: the `<resource>.sync` span, the `sync` channel's `start`.
 *
 * @param options - the run's read options.
 */
export function startSync(operation: IteratedOperation, options: IterationOptions): Iteration {
  const telemetry = telemetrySink()?.start(spanName(operation, 'sync'), 'sync', {
    [TELEMETRY.operation]: operation.operationId,
    [TELEMETRY.concurrency]: options.concurrency,
    [TELEMETRY.readAhead]: options.readAhead,
  });
  const channel = subscribed('sync');
  const trace =
    channel === undefined
      ? undefined
      : new IterationTrace<SyncContext>(channel, syncContext(operation, options));
  return new Iteration(telemetry, trace);
}
