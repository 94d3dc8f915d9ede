// What the SDK tells a tracing and metrics system, without depending on one. The main entry imports no
// telemetry package: a call asks `telemetrySink()?.start()` for a handle, which is `undefined` (one property
// read) unless an instrumentation registered a sink, such as the OpenTelemetry one of
// `@company-data/sdk/opentelemetry`. The sink sits on `globalThis` under a registry symbol, not in a module
// variable: the opt-in entry is its own bundle (in CommonJS each entry has its own copy of this module), and
// an application may load the SDK twice (ESM and CJS), so one registration must reach every copy.

/** Attribute values a span, event or metric may carry: never a key, token, or a value from a query or body. */
export type TelemetryAttributes = Readonly<Record<string, string | number | boolean | undefined>>;

/** What a handle is opened for: one span of the SDK's span tree. */
export type TelemetryScope =
  /** A call on its own: a retrieve, a webhook POST, a list's first page awaited alone. */
  | 'call'
  /**
   * A list iterated: `for await`, `.pages()`, `.toArray()`, with read-ahead or not (`'walk'` is the value
   * `company_data.scope` has carried since it was published).
   */
  | 'walk'
  /** One page of an iterated list or a sync. */
  | 'page'
  /** One run of `sync()`. */
  | 'sync';

/**
 * One logical call's telemetry: its span, and the metrics its attempts record. The request pipeline, the
 * page stream and the sync scan call it; it never sees a key or a query value, only the attributes given.
 */
export interface CallTelemetry {
  /**
   * Runs `fn` with this call's span as the active context, so that spans started inside it (undici's HTTP
   * spans) are its children.
   */
  run<T>(fn: () => T): T;
  /** Adds a span event, e.g. `company_data.retry`. */
  recordEvent(name: string, attributes?: TelemetryAttributes): void;
  /** Sets attributes on the span (e.g. the final attempt count). */
  setAttributes(attributes: TelemetryAttributes): void;
  /**
   * One attempt ended (answered with any status, or failed to connect or in time): the request duration
   * metric.
   *
   * @param durationMs - from sending to the whole body read, or the failure.
   * @param attributes - the status or `error.type`.
   */
  recordAttempt(durationMs: number, attributes: TelemetryAttributes): void;
  /**
   * A retry is coming: the `company_data.retry` event and the retries counter.
   *
   * @param reason - the failed attempt's error code (`server_error`, `timeout`, `connection_error`…).
   */
  recordRetry(reason: string, attributes: TelemetryAttributes): void;
  /**
   * A 429 pauses the rate gate: the `company_data.rate_limit.pause` event and the pause-time metric.
   *
   * @param waitMs - the pause every request through the gate now waits.
   */
  recordPause(waitMs: number, attributes: TelemetryAttributes): void;
  /** Opens a child (a page of this iterated list or sync). */
  child(name: string, scope: TelemetryScope, attributes: TelemetryAttributes): CallTelemetry;
  /**
   * Ends the span: with `error`, its status is an error of that error's code (never its message, which
   * names the URL and its query values), and its outcome `error`; without, its outcome is the one in
   * `attributes`, else `ok`.
   */
  end(error?: unknown, attributes?: TelemetryAttributes): void;
}

/** What an instrumentation registers: where the SDK's calls open their telemetry. */
export interface TelemetrySink {
  /**
   * Opens the telemetry of one call, iterated list or sync, under the active context (the caller's span), or nothing
   * when it would record nothing.
   *
   * @param name - the span's name, e.g. `calls.list`.
   */
  start(name: string, scope: TelemetryScope, attributes: TelemetryAttributes): CallTelemetry | undefined;
}

/** The registry's key: one for every copy of the SDK in the process. */
const SINK_KEY = Symbol.for('@company-data/sdk.telemetry');

type Registry = { [SINK_KEY]?: TelemetrySink | undefined };

/**
 * Registers the sink every call of every client opens its telemetry in, or removes it (`undefined`).
 *
 * @param sink - the sink, or `undefined` to stop.
 */
export function setTelemetrySink(sink: TelemetrySink | undefined): void {
  (globalThis as Registry)[SINK_KEY] = sink;
}

/**
 * The sink registered now, if any: a call opens its telemetry with `telemetrySink()?.start(…)`, so that
 * with none registered it costs one property read (the attributes are not even built).
 */
export function telemetrySink(): TelemetrySink | undefined {
  return (globalThis as Registry)[SINK_KEY];
}

/** Span names and attribute names the SDK's spans use, in one place (the guide lists them). */
export const TELEMETRY = {
  /** The operation of the endpoint table, e.g. `listCalls`. */
  operation: 'company_data.operation',
  /** What the span stands for: a {@link TelemetryScope}. */
  scope: 'company_data.scope',
  /** A page's number. */
  page: 'company_data.page',
  /** The page a sync steps back to. */
  toPage: 'company_data.to_page',
  /** Attempts a request took (1 when the first answered). */
  attempts: 'company_data.attempts',
  /** How the call ended: `ok`, `error`, or for an iterated list also `stopped` (the consumer left early). */
  outcome: 'company_data.outcome',
  /** Pages an iterated list or a sync yielded. */
  pages: 'company_data.pages',
  /** The list options of an iterated list. */
  concurrency: 'company_data.concurrency',
  readAhead: 'company_data.read_ahead',
  ordered: 'company_data.ordered',
  /** Which attempt an event is about. */
  attempt: 'company_data.attempt',
  /** A wait, in ms (backoff, a 429's pause, a wait at the rate gate). */
  waitMs: 'company_data.wait_ms',
  /** Why the SDK retries: the failed attempt's error code. */
  retryReason: 'company_data.retry.reason',
  /** The pause a 429's `Retry-After` asked for, in seconds, when it named one. */
  retryAfter: 'company_data.rate_limit.retry_after',
  /** Who met the 429 a wait at the gate came from: `this_call`, or `other` (another request, or the quota). */
  waitCause: 'company_data.rate_gate.cause',
  /** Pages the read-ahead may now hold, and why it reaches further (`late`: slow; `failed`: retrying). */
  budget: 'company_data.read_ahead.budget',
  reason: 'company_data.reason',
  /** Which copy of a hedged read answered: `first` or `hedge`; and after how long the second went out. */
  hedgeWinner: 'company_data.hedge.winner',
  hedgeAfterMs: 'company_data.hedge.after_ms',
  /** A list's `count` before and after a change. */
  previousCount: 'company_data.count.previous',
  count: 'company_data.count',
  /** Events. */
  retryEvent: 'company_data.retry',
  pauseEvent: 'company_data.rate_limit.pause',
  gateWaitEvent: 'company_data.rate_gate.wait',
  readAheadEvent: 'company_data.read_ahead.extend',
  rereadEvent: 'company_data.page.reread',
  countChangeEvent: 'company_data.count_change',
  stepBackEvent: 'company_data.sync.step_back',
  hedgeEvent: 'company_data.hedge',
} as const;

/** The error code a span's outcome and `error.type` carry: the SDK error's `code`, or the error's name. */
export function errorType(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const { code, name } = error as { code?: unknown; name?: unknown };
    if (typeof code === 'string') return code;
    if (typeof name === 'string') return name;
  }
  return '_OTHER';
}
