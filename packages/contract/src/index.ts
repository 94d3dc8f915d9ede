// The public API of @company-data/contract; its README heads the package's page on the docs site.
export * from './endpoints.js';
export * from './openapi.js';
export * from './paths.js';
export * from './query.js';
export * from './query-wire.js';
export * from './schemas/envelopes.js';
export * from './schemas/errors.js';
export * from './schemas/open-object.js';
export * from './schemas/primitives.js';
export * from './schemas/resources.js';
export * from './schemas/webhooks.js';
