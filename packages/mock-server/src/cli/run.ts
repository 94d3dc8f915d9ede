import { readFile } from 'node:fs/promises';
import { ADMIN_PREFIX } from '../admin/prefix.js';
import type { Fixture } from '../fixture/schema.js';
import { type MockServer, startMockServer } from '../server.js';
import { parseCliArgs, USAGE } from './args.js';

/** Where the CLI writes. */
export interface CliOutput {
  /** Normal output. */
  out(text: string): void;
  /** Errors. */
  err(text: string): void;
}

/**
 * Runs the CLI: parses the arguments, starts the server and prints how to reach it.
 *
 * @param argv - arguments after the program name.
 * @param output - where to write.
 * @returns the running server (undefined after `--help`), or an exit code on a usage or fixture error.
 */
export async function runCli(
  argv: readonly string[],
  output: CliOutput,
): Promise<MockServer | number | undefined> {
  let request: ReturnType<typeof parseCliArgs>;
  try {
    request = parseCliArgs(argv);
  } catch (error) {
    output.err(`company-data-mock: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (request.help) {
    output.out(USAGE);
    return undefined;
  }
  let server: MockServer;
  try {
    const fixture = request.fixturePath === undefined ? undefined : await readFixture(request.fixturePath);
    server = await startMockServer({
      ...request.options,
      ...(fixture === undefined ? {} : { fixture: fixture as Fixture }),
    });
  } catch (error) {
    output.err(`company-data-mock: ${(error as Error).message}\n`);
    return 1;
  }
  output.out(request.json ? `${JSON.stringify(summary(server))}\n` : describe(server));
  return server;
}

async function readFixture(path: string): Promise<unknown> {
  const text = await readFile(path, 'utf8');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${path} is not valid JSON: ${(error as Error).message}`);
  }
}

function summary(server: MockServer) {
  return {
    baseURL: server.baseURL,
    apiRoot: server.apiRoot,
    keys: server.keys,
    tokens: server.tokens,
    adminToken: server.adminToken,
    adminURL: `${server.apiRoot}${ADMIN_PREFIX}`,
  };
}

function describe(server: MockServer): string {
  const { keys, tokens } = server;
  return `Company Data mock server listening

  Base URL   ${server.baseURL}
  API root   ${server.apiRoot}

  API keys (Authorization: Bearer <key>)
    valid           ${keys.valid}
    expired         ${keys.expired}
    revoked         ${keys.revoked}
    limited         ${keys.limited}   (users and teams only)
    noPermissions   ${keys.noPermissions}
    otherCompany    ${keys.otherCompany}   (another company)

  Webhooks (no key)
    audience        POST ${server.baseURL}/outbound-campaigns/webhook/${tokens.audience}/
    lead            POST ${server.apiRoot}/messaging-agent/webhook/${tokens.lead}/
    deleted lead    POST ${server.apiRoot}/messaging-agent/webhook/${tokens.deletedLead}/   (404)

  Admin API        ${server.apiRoot}${ADMIN_PREFIX}   (Authorization: Bearer ${server.adminToken})

  Try: curl -H "Authorization: Bearer ${keys.valid}" "${server.baseURL}/calls/?page_size=5"

Press Ctrl+C to stop.
`;
}
