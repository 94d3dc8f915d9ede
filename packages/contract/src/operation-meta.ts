import type { OperationId } from './compiled/operations.generated.js';
import type { DataResource, EndpointAuth, EndpointBase, EndpointKind } from './endpoints.js';
import type { ErrorShape } from './error-details.js';

// Only types come from the endpoints' module: the runtime entry point, which exports this, loads no zod.

/**
 * One operation of the endpoint table without its schemas: what a client needs to send it. The rows
 * are in `OPERATIONS`, generated from the endpoint table at build time.
 *
 * @example
 * ```ts
 * const webhooks: OperationMeta[] = Object.values(OPERATIONS).filter((row) => row.kind === 'webhook');
 * ```
 */
export interface OperationMeta {
  /** Stable operation name, also the OpenAPI `operationId`. */
  readonly operationId: OperationId;
  /** One-line description. */
  readonly summary: string;
  /** HTTP method. */
  readonly method: 'GET' | 'POST';
  /** Path template relative to {@link OperationMeta.base}, with `{name}` placeholders. */
  readonly path: string;
  /** Which address the path is appended to. */
  readonly base: EndpointBase;
  /** How requests authenticate. */
  readonly auth: EndpointAuth;
  /** What the operation does. */
  readonly kind: EndpointKind;
  /** The data resource read, for API-key endpoints. */
  readonly resource?: DataResource;
  /** Success statuses. */
  readonly successStatuses: readonly number[];
  /** Shape of error bodies. */
  readonly errorShape: ErrorShape;
  /** The names of the path parameters. */
  readonly pathParamNames: readonly string[];
  /** The names of the query parameters (list operations; empty otherwise). */
  readonly queryNames: readonly string[];
  /** The names of the body's fields (webhooks; empty otherwise). */
  readonly bodyNames: readonly string[];
}
