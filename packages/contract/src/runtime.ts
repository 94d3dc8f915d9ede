/**
 * The part of the contract that needs no zod at run time, for code that must start fast (the SDK imports
 * only this): the checks compiled from the schemas. The schemas themselves stay in `@company-data/contract`.
 *
 * @module @company-data/contract/runtime
 */
export type { Check } from './compiled/validators.generated.js';
export {
  BODY_CHECKS,
  ERROR_BODY_CHECKS,
  PATH_CHECKS,
  QUERY_CHECKS,
  RESPONSE_CHECKS,
} from './compiled/validators.generated.js';
