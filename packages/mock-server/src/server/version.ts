// Bundled at build time, so the published code carries its own version without reading files at runtime.
import { version } from '../../package.json';

/**
 * The version of this package, as `company-data-mock --version` prints it.
 *
 * @example
 * ```ts
 * console.log(`@company-data/mock-server ${MOCK_SERVER_VERSION}`);
 * ```
 */
export const MOCK_SERVER_VERSION: string = version;
