/**
 * Typed Node.js client for the Company Data API.
 *
 * @packageDocumentation
 */

/**
 * The name this package is published under.
 *
 * @example
 * ```ts
 * console.log(PACKAGE_NAME); // '@company-data/sdk'
 * ```
 */
export const PACKAGE_NAME = '@company-data/sdk';
