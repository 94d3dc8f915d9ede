import type { OperationMeta } from '@company-data/contract/runtime';
import { RequestAbortedError } from '../errors.js';
import { SDK_METHODS } from '../methods.js';
import { type CallTelemetry, TELEMETRY, type TelemetryAttributes } from './sink.js';

// The attributes a call's span starts with, and how it ends. Only what names the operation and the server
// goes in: never the URL itself (its query holds the caller's values, a webhook's path its token).

/**
 * A span's name: the SDK method, as `client.<resource>.<method>()` names it, without the client, e.g.
 * `calls.list`; `method` for another method built on the operation (`sync`). Few names, whatever the ids
 * and pages, as span names should be.
 */
export function spanName(operation: Pick<OperationMeta, 'operationId'>, method?: string): string {
  const [resource, own] = SDK_METHODS[operation.operationId];
  return `${resource}.${method ?? own}`;
}

/**
 * The attributes of a request's span: the operation, the stable HTTP conventions that name it (method,
 * `url.template`: the endpoint's path under the API's address) and, for a list, the page.
 */
export function requestAttributes(
  operation: Pick<OperationMeta, 'operationId' | 'method' | 'path'>,
  page?: number,
): TelemetryAttributes {
  return {
    [TELEMETRY.operation]: operation.operationId,
    [TELEMETRY.page]: page,
    'http.request.method': operation.method,
    'url.template': operation.path,
  };
}

/** The server a request goes to, `server.address` and `server.port`: the host only, never the path or query. */
export function serverAttributes(url: string): TelemetryAttributes {
  const { hostname, port } = new URL(url);
  return { 'server.address': hostname, 'server.port': port === '' ? undefined : Number(port) };
}

/**
 * Ends `telemetry` when `work` settles (its error, if any, sets the outcome), and gives `work`'s result.
 *
 * @param telemetry - the call's telemetry; without it, `work` itself is returned.
 */
export function endedWith<T>(telemetry: CallTelemetry | undefined, work: Promise<T>): Promise<T> {
  if (telemetry === undefined) return work;
  return work.then(
    (value) => {
      telemetry.end();
      return value;
    },
    (error: unknown) => {
      endTelemetry(telemetry, error);
      throw error;
    },
  );
}

const STOPPED = { [TELEMETRY.outcome]: 'stopped' } as const;

/**
 * Whether work that ended with `error` was stopped rather than failed: an abort (the caller's signal, an
 * iteration left early that stops its pages in flight, the losing copy of a hedged read) is no failure.
 */
export function stoppedBy(error: unknown): boolean {
  return error instanceof RequestAbortedError;
}

/**
 * Ends `telemetry` with the error a call, an iteration or a sync ended with, if any. An abort is no failure:
 * the caller's signal, or an iteration left early that stops its pages in flight, ends it `stopped`, its
 * status unset.
 *
 * @param attributes - the last attributes (an iteration's `company_data.outcome` of `stopped` when it was
 * left before its end).
 */
export function endTelemetry(
  telemetry: CallTelemetry,
  error: unknown,
  attributes?: TelemetryAttributes,
): void {
  if (!stoppedBy(error)) {
    telemetry.end(error, attributes);
    return;
  }
  if (attributes !== undefined) telemetry.setAttributes(attributes);
  telemetry.end(undefined, STOPPED);
}
