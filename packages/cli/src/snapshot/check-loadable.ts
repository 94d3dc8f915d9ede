import { createMockServer, type Fixture } from '@company-data/mock-server';

/**
 * Loads the fixture into an in-process mock server, exactly as a user's test would, before anything is
 * written: a file the mock refuses is never produced.
 *
 * @throws Error with the mock server's reason (the data the API returned breaks a rule of the fixture format).
 */
export async function checkLoadable(fixture: Fixture): Promise<void> {
  let server: ReturnType<typeof createMockServer>;
  try {
    server = createMockServer({ fixture });
  } catch (error) {
    throw new Error(
      `The data read does not make a fixture the mock server loads, so nothing was written: ${(error as Error).message}. Run \`company-data verify\` to see where the API differs from the contract.`,
    );
  }
  await server.close();
}
