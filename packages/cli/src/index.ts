/**
 * Command-line tools for your own Company Data account, also usable from code: `snapshot` reads a company
 * into a fixture that `@company-data/mock-server` loads (placeholder keys, optional deterministic
 * anonymisation), and `verify` checks a live server against the contract. The commands are `company-data
 * snapshot` and `company-data verify`; `company-data export` and `company-data sync` keep a copy of a list in
 * a file or PostgreSQL, and their machinery is `@company-data/cli/copy`.
 *
 * @example
 * ```ts
 * import { snapshot, verify } from '@company-data/cli';
 *
 * const report = await verify({ baseURL: 'https://api.example.com/v1' });
 * if (!report.ok) process.exitCode = 1;
 * await snapshot({ output: 'test/fixture.json', anonymize: true });
 * ```
 *
 * @packageDocumentation
 */
export type { ConnectionOptions } from './connection.js';
export { UsageError } from './errors.js';
export type { ProgressStream } from './progress-bar.js';
export { MIN_SEED_LENGTH } from './snapshot/options.js';
export { PLACEHOLDER_KEYS } from './snapshot/placeholder-keys.js';
export { type SnapshotOptions, type SnapshotResult, snapshot } from './snapshot/snapshot.js';
export { CHECK_NAMES, type CheckName, type CheckResult, type Mismatch } from './verify/findings.js';
export { type VerifyOptions, type VerifyReport, verify } from './verify/verify.js';
export { CLI_VERSION } from './version.js';
