// Built as the SDK is: one entry point, ESM and CJS with declarations.
export { default } from '../sdk/tsup.config.js';
