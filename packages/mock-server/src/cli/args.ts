import { parseArgs } from 'node:util';
import type { StartMockServerOptions } from '../server.js';

/** What the command line asked for. */
export interface CliRequest {
  /** Options for startMockServer (the fixture is still a file path here). */
  readonly options: StartMockServerOptions;
  /** Path of a fixture JSON file. */
  readonly fixturePath?: string | undefined;
  /** Print machine-readable JSON instead of words. */
  readonly json: boolean;
  /** Print the usage and exit. */
  readonly help: boolean;
}

/** The default port of the CLI. */
export const DEFAULT_CLI_PORT = 4010;

/** The CLI usage text. */
export const USAGE = `Usage: company-data-mock [options]

Serves a stateful mock of the Company Data API on a local port.

Options:
  --port <n>             port to listen on, 0 for any free port (default ${DEFAULT_CLI_PORT})
  --host <host>          interface to bind (default 127.0.0.1)
  --seed <n>             seed of the generated data (default 1)
  --fixture <file>       load companies, keys and records from a JSON fixture instead
  --users <n>            users of the primary company (default 12)
  --teams <n>            teams (default 4)
  --recordings <n>       field recordings (default 60)
  --calls <n>            calls (default 240)
  --now <time>           initial time of the mock clock (default 2026-06-01T12:00:00Z)
  --throttle <n>/<s>     per-key quota, e.g. 100/60, or "off" (default 1000/60)
  --max-body-bytes <n>   request body limit (default 1048576)
  --admin-token <token>  token of the admin API under /__admin/ (default: random)
  --json                 print the addresses, keys and tokens as JSON
  -h, --help             show this help
`;

/**
 * Parses the command line.
 *
 * @param argv - arguments after the program name.
 * @returns what to start.
 * @throws Error with a readable message for an unknown option or a bad value.
 */
export function parseCliArgs(argv: readonly string[]): CliRequest {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      seed: { type: 'string' },
      fixture: { type: 'string' },
      users: { type: 'string' },
      teams: { type: 'string' },
      recordings: { type: 'string' },
      calls: { type: 'string' },
      now: { type: 'string' },
      throttle: { type: 'string' },
      'max-body-bytes': { type: 'string' },
      'admin-token': { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const sizes = {
    users: integer('users', values.users),
    teams: integer('teams', values.teams),
    recordings: integer('recordings', values.recordings),
    calls: integer('calls', values.calls),
  };
  const options: StartMockServerOptions = {
    port: integer('port', values.port) ?? DEFAULT_CLI_PORT,
    host: values.host ?? '127.0.0.1',
    seed: integer('seed', values.seed),
    sizes: Object.fromEntries(Object.entries(sizes).filter(([, value]) => value !== undefined)),
    now: values.now,
    throttle: throttle(values.throttle),
    maxBodyBytes: integer('max-body-bytes', values['max-body-bytes']),
    adminToken: values['admin-token'],
  };
  return {
    options: dropUndefined(options),
    fixturePath: values.fixture,
    json: values.json,
    help: values.help,
  };
}

function integer(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw)) throw new Error(`--${name} expects a whole number, got "${raw}"`);
  return Number(raw);
}

function throttle(raw: string | undefined): StartMockServerOptions['throttle'] {
  if (raw === undefined) return undefined;
  if (raw === 'off') return false;
  const match = /^(\d+)\/(\d+(?:\.\d+)?)$/.exec(raw);
  if (!match) throw new Error(`--throttle expects <limit>/<seconds> (e.g. 100/60) or "off", got "${raw}"`);
  return { limit: Number(match[1]), windowSeconds: Number(match[2]) };
}

function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}
