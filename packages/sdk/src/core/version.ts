// Bundled at build time, so the published code carries its own version without reading files at runtime.
import { version } from '../../package.json';

/**
 * The version of this package, as sent in the `User-Agent` header.
 *
 * @example
 * ```ts
 * console.log(`@company-data/sdk ${SDK_VERSION}`);
 * ```
 */
export const SDK_VERSION: string = version;
