/**
 * The single source of truth shared by the Company Data SDK and mock server: zod schemas and types
 * for every object of the API, the endpoint table, error shapes and the OpenAPI document.
 *
 * @packageDocumentation
 */
export * from './endpoints.js';
export * from './openapi.js';
export * from './paths.js';
export * from './query.js';
export * from './query-wire.js';
export * from './schemas/envelopes.js';
export * from './schemas/errors.js';
export * from './schemas/primitives.js';
export * from './schemas/resources.js';
export * from './schemas/webhooks.js';
