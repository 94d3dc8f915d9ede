/**
 * Stateful, spec-exact in-memory reference server for the Company Data API.
 *
 * @packageDocumentation
 */

/**
 * The name this package is published under.
 *
 * @example
 * ```ts
 * console.log(PACKAGE_NAME); // '@company-data/mock-server'
 * ```
 */
export const PACKAGE_NAME = '@company-data/mock-server';
