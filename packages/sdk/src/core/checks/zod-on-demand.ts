import type { EndpointDefinition } from '@company-data/contract';
import type { OperationId } from '@company-data/contract/runtime';

// The contract's zod schemas are loaded on first need only: to describe input or a response the compiled
// checks refused, and to parse a webhook body. Loading them with the SDK would double its import time.

let contract: Promise<typeof import('@company-data/contract')> | undefined;
let zod: Promise<typeof import('zod')> | undefined;

/**
 * The row of the endpoint table with its zod schemas.
 *
 * @param operationId - the operation.
 * @returns the row, once the contract's schemas are loaded.
 */
export async function endpointWithSchemas(operationId: OperationId): Promise<EndpointDefinition> {
  contract ??= import('@company-data/contract');
  return (await contract).endpoints[operationId];
}

/**
 * zod itself, for its error formatting.
 *
 * @returns the `zod` module, once loaded.
 */
export function loadZod(): Promise<typeof import('zod')> {
  zod ??= import('zod');
  return zod;
}
