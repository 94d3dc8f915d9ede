/**
 * The part of the contract that needs no zod at run time, for code that must start fast (the SDK imports
 * only this): the endpoint table without its schemas, the checks compiled from the schemas, and the
 * plain values and path helpers the schemas' module shares. The schemas themselves stay in
 * `@company-data/contract`.
 *
 * @module @company-data/contract/runtime
 * @group Entry points
 */

export * from './api-key.js';
export * from './closest-name.js';
export type { OperationId } from './compiled/operations.generated.js';
export { OPERATIONS } from './compiled/operations.generated.js';
export type { Check } from './compiled/validators.generated.js';
export {
  BODY_CHECKS,
  ERROR_BODY_CHECKS,
  PATH_CHECKS,
  QUERY_CHECKS,
  RESPONSE_CHECKS,
} from './compiled/validators.generated.js';
export * from './error-details.js';
export * from './list-limits.js';
export type { OperationMeta } from './operation-meta.js';
export * from './paths.js';
export * from './request-limits.js';
