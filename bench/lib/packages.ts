/**
 * Loads the workspace packages under test. Missing pieces (a package still being written) become a
 * {@link NotReady} error, which a figure reports as "not measured" instead of failing the whole run.
 */

/** The SDK module. */
export type SdkModule = typeof import('@company-data/sdk');
/** The mock server module. */
export type MockModule = typeof import('@company-data/mock-server');

/** A package or export the figure needs is not there yet. */
export class NotReady extends Error {
  override name = 'NotReady';
}

function requireExports(module: Record<string, unknown>, pkg: string, names: readonly string[]): void {
  const missing = names.filter((name) => typeof module[name] !== 'function');
  if (missing.length > 0) throw new NotReady(`${pkg} does not export ${missing.join(', ')} yet`);
}

/** Imports the SDK, or throws {@link NotReady} when it has no `CompanyData` client yet. */
export async function loadSdk(): Promise<SdkModule> {
  const sdk = await import('@company-data/sdk');
  requireExports(sdk as unknown as Record<string, unknown>, '@company-data/sdk', ['CompanyData']);
  return sdk;
}

/** Imports the mock server, or throws {@link NotReady} when it lacks `createMockServer`/`startMockServer`. */
export async function loadMock(): Promise<MockModule> {
  const mock = await import('@company-data/mock-server');
  requireExports(mock as unknown as Record<string, unknown>, '@company-data/mock-server', [
    'createMockServer',
    'startMockServer',
  ]);
  return mock;
}
