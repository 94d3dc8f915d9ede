import type { OperationMeta } from '@company-data/contract/runtime';
import type { HedgeOutcome } from '../core/options.js';
import type { AttemptResponse } from './transport.js';

// A request on its way down: an operation asks for a `CallRequest` (the endpoint, the URL, the body as a
// value); each attempt of it goes to the transport as an `AttemptRequest` (request/transport.ts: headers,
// the body as text, the time limit, the signal), which is the `WireRequest` that undici's `dispatch` sends
// (request/dispatch.ts), with those limits added. What comes back is an `AnsweredCall`: the call, with the
// attempt's response.

/**
 * What the pipeline needs of an operation: a row of the contract's `OPERATIONS` (or of its endpoint
 * table, whose `operationId` is typed as a plain string).
 */
export type CallEndpoint = Pick<
  OperationMeta,
  'method' | 'path' | 'base' | 'auth' | 'kind' | 'successStatuses'
> & {
  readonly operationId: string;
};

/** One call, ready to send. */
export interface CallRequest {
  endpoint: CallEndpoint;
  url: string;
  /** The URL as messages and logs show it: a webhook token in it is redacted. */
  shownUrl: string;
  body?: unknown;
  /** The page of a list it reads, for its telemetry and its tracing contexts. */
  page?: number | undefined;
}

/** A call with the response it got: what `core.send()` gives, before the body is read. */
export interface AnsweredCall {
  call: CallRequest;
  response: AttemptResponse;
  /** Which copy answered, when the last attempt was hedged. */
  hedge?: HedgeOutcome | undefined;
}

/** A call's method and URL (tokens redacted), as messages name it, e.g. `GET https://…/v1/users/`. */
export function describeCall(call: CallRequest): string {
  return `${call.endpoint.method} ${call.shownUrl}`;
}
