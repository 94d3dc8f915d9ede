// Starts the company-data-mock command installed in a project, the way the testing guide tells a harness to:
// on a free port, reading its JSON line, tied to our life by its standard input.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';

/**
 * @param {string} projectDir - the project the mock server is installed in.
 * @param {NodeJS.ProcessEnv} env
 * @returns {Promise<{ summary: MockSummary, stop: () => Promise<void> }>} what the mock printed, and a
 *   function that stops it by closing its standard input.
 */
export async function startMockCli(projectDir, env) {
  const bin = path.join(
    projectDir,
    'node_modules',
    '@company-data',
    'mock-server',
    'bin',
    'company-data-mock.mjs',
  );
  const child = spawn(process.execPath, [bin, '--port', '0', '--json', '--exit-on-stdin-close'], {
    cwd: projectDir,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text) => {
    stderr += text;
  });
  const exited = once(child, 'exit');
  let started = false;
  const firstLine = await Promise.race([
    once(createInterface({ input: child.stdout }), 'line').then(([line]) => {
      started = true;
      return line;
    }),
    exited.then(([code]) => {
      if (!started)
        throw new Error(
          `company-data-mock exited with code ${code} before it printed its address:\n${stderr}`,
        );
    }),
  ]);
  return {
    summary: JSON.parse(firstLine),
    stop: async () => {
      child.stdin.end();
      await exited;
    },
  };
}

/**
 * What `company-data-mock --json` prints, as far as the checks read it.
 *
 * @typedef {{ baseURL: string, apiRoot: string, keys: Record<string, string>, tokens: Record<string, string> }} MockSummary
 */

/**
 * The environment the guides tell a reader to set from what the mock printed.
 *
 * @param {MockSummary} summary
 */
export function mockEnv({ baseURL, apiRoot, keys, tokens }) {
  return {
    COMPANY_DATA_API_KEY: keys.valid,
    COMPANY_DATA_BASE_URL: baseURL,
    COMPANY_DATA_AUDIENCE_WEBHOOK: `${baseURL}/outbound-campaigns/webhook/${tokens.audience}/`,
    COMPANY_DATA_LEAD_WEBHOOK: `${apiRoot}/messaging-agent/webhook/${tokens.lead}/`,
  };
}
