/**
 * The contract: zod schemas and types of every object, the endpoint table, error shapes and the OpenAPI
 * document. Its zod-free part, the compiled checks, is in `@company-data/contract/runtime`.
 *
 * @module @company-data/contract
 * @mergeModuleWith <project>
 */
export * from './api-key.js';
export * from './closest-name.js';
export * from './endpoints.js';
export * from './error-details.js';
export * from './list-limits.js';
export * from './openapi.js';
export * from './paths.js';
export * from './query.js';
export * from './query-wire.js';
export * from './request-limits.js';
export * from './schemas/envelopes.js';
export * from './schemas/errors.js';
export * from './schemas/open-object.js';
export * from './schemas/primitives.js';
export * from './schemas/resources.js';
export * from './schemas/webhooks.js';
