import type { EndpointDefinition, OperationId } from './endpoints.js';

// Only types come from the endpoints' module: the runtime entry point, which exports this, loads no zod.

/** The fields of an endpoint row that hold zod schemas. */
type SchemaField = 'pathParams' | 'query' | 'body' | 'response';

/**
 * One operation of the endpoint table without its schemas (and documented error statuses): what a
 * client needs to send it. The rows are in `OPERATIONS`, generated from the endpoint table at build time.
 *
 * @example
 * ```ts
 * import { OPERATIONS, type OperationMeta } from '@company-data/contract/runtime';
 *
 * const webhooks: OperationMeta[] = Object.values(OPERATIONS).filter((row) => row.kind === 'webhook');
 * ```
 */
export interface OperationMeta
  extends Omit<EndpointDefinition, 'operationId' | SchemaField | 'specErrors' | 'errors'> {
  /** Stable operation name, also the OpenAPI `operationId`. */
  readonly operationId: OperationId;
  /** The names of the path parameters. */
  readonly pathParamNames: readonly string[];
  /** The names of the query parameters (list operations; empty otherwise). */
  readonly queryNames: readonly string[];
  /** The names of the body's fields (webhooks; empty otherwise). */
  readonly bodyNames: readonly string[];
}
