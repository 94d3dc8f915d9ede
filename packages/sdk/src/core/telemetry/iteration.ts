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

/** What a list's iteration is read with. */
type WalkOptions = IterationOptions & { readonly ordered: boolean };

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
 * Begins a list's iteration (`walk`: the `<resource>.list iterate` span and the `walk` channel's `start`) or a
 * run of `sync()` (`sync`: the `<resource>.sync` span and the `sync` channel's `start`).
 *
 * @param kind - which: its span's scope and its channel.
 * @param options - how its pages are read (`ordered` for a list's iteration only).
 */
export function startIteration(
  kind: 'walk',
  operation: IteratedOperation,
  options: IterationOptions & { readonly ordered: boolean },
): Iteration;
export function startIteration(
  kind: 'sync',
  operation: IteratedOperation,
  options: IterationOptions,
): Iteration;
export function startIteration(
  kind: 'walk' | 'sync',
  operation: IteratedOperation,
  options: IterationOptions & { readonly ordered?: boolean },
): Iteration {
  const name = kind === 'walk' ? `${spanName(operation)} iterate` : spanName(operation, 'sync');
  const telemetry = telemetrySink()?.start(name, kind, {
    [TELEMETRY.operation]: operation.operationId,
    [TELEMETRY.concurrency]: options.concurrency,
    [TELEMETRY.readAhead]: options.readAhead,
    [TELEMETRY.ordered]: options.ordered,
  });
  const channel = subscribed(kind);
  if (channel === undefined) return new Iteration(telemetry, undefined);
  const trace =
    kind === 'walk'
      ? new IterationTrace<WalkContext>(channel, walkContext(operation, options as WalkOptions))
      : new IterationTrace<SyncContext>(channel, syncContext(operation, options));
  return new Iteration(telemetry, trace);
}
