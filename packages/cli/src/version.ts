// Bundled at build time, so the published code carries its own version without reading files at runtime.
import { version } from '../package.json';

/**
 * The version of this package, as `company-data --version` prints it.
 *
 * @example
 * ```ts
 * console.log(`@company-data/cli ${CLI_VERSION}`);
 * ```
 */
export const CLI_VERSION: string = version;
