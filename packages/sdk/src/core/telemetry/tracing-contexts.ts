import type {
  AttemptContext,
  CallContext,
  PageContext,
  SyncContext,
  WalkContext,
} from './tracing-channels.js';

// The contexts of the SDK's tracing channels as it makes them: each kind in one literal with every field,
// the ones set at the end included, so that every context of a kind has one shape. (A context spread from
// a common part, `{ ...base, page }`, costs V8 about a microsecond; a literal, a few nanoseconds.)

/** A context as the SDK fills it in: the fields a subscriber reads as `readonly` are the SDK's to set. */
export type Settable<Context> = { -readonly [Field in keyof Context]: Context[Field] };

/** The operation a context names, as the endpoint table's row gives it. */
export interface TracedEndpoint {
  readonly operationId: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
}

/**
 * The context of a call: a call on its own (the `call` channel; `page` for a list's page read as a call), or
 * one page of a list iterated or of a sync (the `page` channel). Both channels' contexts have one shape.
 */
export function callContext(endpoint: TracedEndpoint, page: number): Settable<PageContext>;
export function callContext(endpoint: TracedEndpoint, page: number | undefined): Settable<CallContext>;
export function callContext(
  endpoint: TracedEndpoint,
  page: number | undefined,
): Settable<CallContext> | Settable<PageContext> {
  return {
    operation: endpoint.operationId,
    method: endpoint.method,
    urlTemplate: endpoint.path,
    page,
    attempts: 0,
    status: undefined,
    outcome: undefined,
    error: undefined,
  };
}

/** The context of one attempt of a call or a page. */
export function attemptContext(
  endpoint: TracedEndpoint,
  attempt: number,
  page: number | undefined,
): Settable<AttemptContext> {
  return {
    operation: endpoint.operationId,
    method: endpoint.method,
    urlTemplate: endpoint.path,
    attempt,
    page,
    status: undefined,
    hedge: undefined,
    outcome: undefined,
    error: undefined,
  };
}

/** The context of a list iterated. */
export function walkContext(
  endpoint: TracedEndpoint,
  options: { readonly concurrency: number; readonly readAhead: number; readonly ordered: boolean },
): Settable<WalkContext> {
  return {
    operation: endpoint.operationId,
    method: endpoint.method,
    urlTemplate: endpoint.path,
    concurrency: options.concurrency,
    readAhead: options.readAhead,
    ordered: options.ordered,
    pages: undefined,
    outcome: undefined,
    error: undefined,
  };
}

/** The context of a run of `sync()`. */
export function syncContext(
  endpoint: TracedEndpoint,
  options: { readonly concurrency: number; readonly readAhead: number },
): Settable<SyncContext> {
  return {
    operation: endpoint.operationId,
    method: endpoint.method,
    urlTemplate: endpoint.path,
    concurrency: options.concurrency,
    readAhead: options.readAhead,
    pages: undefined,
    outcome: undefined,
    error: undefined,
  };
}
