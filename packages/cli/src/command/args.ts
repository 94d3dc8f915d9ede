import { type ParseArgsConfig, parseArgs } from 'node:util';
import { closestName } from '@company-data/contract/runtime';
import { MAX_CONCURRENCY } from '@company-data/sdk';
import { CHECK_DEFAULT_CONCURRENCY } from '../check/check-copy.js';
import { fileRepairRefusal } from '../check/rebuild.js';
import type { ConnectionOptions } from '../connection.js';
import type { CopyMode } from '../copy/copy-list.js';
import { COPY_LISTS, type CopyListName, isCopyList } from '../copy/lists.js';
import { DURATION_FORMAT, parseDuration } from '../duration.js';
import { UsageError } from '../errors.js';
import type { SnapshotOptions } from '../snapshot/snapshot.js';
import type { VerifyOptions } from '../verify/verify.js';

/** The commands, as an unknown one's "did you mean" weighs them. */
const COMMANDS = ['snapshot', 'verify', 'export', 'sync', 'check'] as const;

/** What the command line asked for. */
export type CliRequest =
  | { readonly command: 'help' }
  | { readonly command: 'version' }
  | { readonly command: 'snapshot'; readonly options: SnapshotOptions }
  | { readonly command: 'verify'; readonly options: VerifyOptions; readonly json: boolean }
  | { readonly command: CopyMode; readonly options: CopyCommandOptions; readonly json: boolean }
  | { readonly command: 'check'; readonly options: CheckCommandOptions; readonly json: boolean };

/** What `company-data export` and `company-data sync` were asked. */
export interface CopyCommandOptions extends ConnectionOptions {
  readonly list: CopyListName;
  /** Where the copy goes: an NDJSON file, or a PostgreSQL database. */
  readonly destination:
    | { readonly file: string }
    | { readonly postgres: string; readonly schema?: string | undefined };
  readonly lookBack: number;
  readonly concurrency: number;
  /** How long to wait for another run (ms); 0 refuses at once. */
  readonly wait: number;
}

const CONNECTION = {
  'base-url': { type: 'string' },
  'api-key': { type: 'string' },
  timeout: { type: 'string' },
} as const;

const SNAPSHOT = {
  ...CONNECTION,
  'max-calls': { type: 'string' },
  'max-recordings': { type: 'string' },
  since: { type: 'string' },
  concurrency: { type: 'string' },
  anonymize: { type: 'boolean' },
  seed: { type: 'string' },
  'company-name': { type: 'string' },
  fresh: { type: 'boolean' },
  wait: { type: 'string' },
} as const;

const EXPORT = {
  ...CONNECTION,
  out: { type: 'string' },
  to: { type: 'string' },
  schema: { type: 'string' },
  concurrency: { type: 'string' },
  wait: { type: 'string' },
  json: { type: 'boolean' },
} as const;

const SYNC = { ...EXPORT, 'look-back': { type: 'string' } } as const;

/** `--to` takes a PostgreSQL connection string. */
const POSTGRES_URL = /^postgres(?:ql)?:\/\//;

const VERIFY = {
  ...CONNECTION,
  pages: { type: 'string' },
  'page-size': { type: 'string' },
  details: { type: 'string' },
  'audience-webhook': { type: 'string' },
  'lead-webhook': { type: 'string' },
  json: { type: 'boolean' },
} as const;

/**
 * Parses the command line.
 *
 * @param argv - the arguments after the program name.
 * @throws UsageError for an unknown command or option, or a bad value, saying what is expected.
 */
export function parseCliArgs(argv: readonly string[]): CliRequest {
  const [command, ...rest] = argv;
  if (
    command === undefined ||
    command === '-h' ||
    command === '--help' ||
    rest.includes('--help') ||
    rest.includes('-h')
  )
    return { command: 'help' };
  if (command === '-v' || command === '--version') return { command: 'version' };
  if (command === 'snapshot') return { command, options: snapshotOptions(rest) };
  if (command === 'verify') {
    const { values } = parse(rest, VERIFY, false);
    return {
      command,
      json: values.json ?? false,
      options: {
        ...connection(values),
        pages: integer('--pages', values.pages),
        pageSize: integer('--page-size', values['page-size']),
        details: integer('--details', values.details),
        audienceWebhook: values['audience-webhook'],
        leadWebhook: values['lead-webhook'],
      },
    };
  }
  if (command === 'export' || command === 'sync') {
    const { values, positionals } = parse(rest, command === 'sync' ? SYNC : EXPORT, true);
    const lookBack = (values as { 'look-back'?: string })['look-back'];
    return {
      command,
      json: values.json ?? false,
      options: copyOptions(command, positionals, { ...values, lookBack }),
    };
  }
  if (command === 'check') return checkRequest(rest);
  const near = closestName(command, COMMANDS);
  const hint = near === undefined ? '' : ` (did you mean "${near}"?)`;
  throw new UsageError(`Unknown command "${command}"${hint}: use snapshot, verify, export, sync or check.`);
}

function copyOptions(
  command: CopyMode,
  positionals: readonly string[],
  values: {
    out?: string;
    to?: string;
    schema?: string;
    concurrency?: string;
    wait?: string;
    lookBack?: string | undefined;
    'base-url'?: string;
    'api-key'?: string;
    timeout?: string;
  },
): CopyCommandOptions {
  const list = listOf(command, positionals, ['copy', 'copies']);
  const destination = destinationOf(command, values);
  const concurrency = concurrencyOf(values.concurrency, 1);
  return {
    ...connection(values),
    list,
    destination,
    lookBack: duration('--look-back', values.lookBack) ?? 0,
    concurrency,
    wait: duration('--wait', values.wait) ?? 0,
  };
}

/** The list a copy command names, alone. */
function listOf(
  command: string,
  positionals: readonly string[],
  [verb, verbs]: [string, string],
): CopyListName {
  const [list, ...extra] = positionals;
  const lists = COPY_LISTS.join(', ');
  if (list === undefined)
    throw new UsageError(
      `${command} needs the list to ${verb} (${lists}), e.g. company-data ${command} calls --out calls.ndjson.`,
    );
  if (!isCopyList(list)) throw new UsageError(`Unknown list "${list}": use one of ${lists}.`);
  if (extra.length > 0)
    throw new UsageError(`${command} ${verbs} one list; unexpected "${extra.join(' ')}".`);
  return list;
}

/** Where a copy is: an NDJSON file, or a PostgreSQL database. */
function destinationOf(
  command: string,
  values: { out?: string; to?: string; schema?: string },
): CopyCommandOptions['destination'] {
  if ((values.out === undefined) === (values.to === undefined))
    throw new UsageError(
      `${command} needs one destination: --out <file> (NDJSON) or --to postgres://user@host/database.`,
    );
  if (values.to !== undefined && !POSTGRES_URL.test(values.to))
    throw new UsageError(
      `--to expects a PostgreSQL connection string (postgres://user@host/database); got "${values.to}".`,
    );
  if (values.schema !== undefined && values.to === undefined)
    throw new UsageError('--schema goes with --to postgres://…: a file has no schema.');
  return values.to !== undefined
    ? { postgres: values.to, schema: values.schema }
    : { file: values.out as string };
}

/** Requests in flight, 1 to the SDK's most. */
function concurrencyOf(raw: string | undefined, fallback: number): number {
  const concurrency = integer('--concurrency', raw) ?? fallback;
  if (concurrency < 1 || concurrency > MAX_CONCURRENCY)
    throw new UsageError(
      `--concurrency expects a whole number from 1 to ${MAX_CONCURRENCY}; got ${concurrency}.`,
    );
  return concurrency;
}

function duration(flag: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const ms = parseDuration(raw);
  if (ms === undefined) throw new UsageError(`${flag} expects ${DURATION_FORMAT}; got "${raw}".`);
  return ms;
}

function snapshotOptions(argv: readonly string[]): SnapshotOptions {
  const { values, positionals } = parse(argv, SNAPSHOT, true);
  const [output, ...extra] = positionals;
  if (output === undefined)
    throw new UsageError('snapshot needs the file to write, e.g. company-data snapshot test/fixture.json.');
  if (extra.length > 0) throw new UsageError(`snapshot writes one file; unexpected "${extra.join(' ')}".`);
  return {
    ...connection(values),
    output,
    maxCalls: limit('--max-calls', values['max-calls']),
    maxRecordings: limit('--max-recordings', values['max-recordings']),
    since: values.since,
    concurrency: integer('--concurrency', values.concurrency),
    anonymize: values.anonymize,
    seed: values.seed,
    companyName: values['company-name'],
    fresh: values.fresh,
    wait: duration('--wait', values.wait),
  };
}

function parse<Options extends NonNullable<ParseArgsConfig['options']>>(
  args: readonly string[],
  options: Options,
  allowPositionals: boolean,
) {
  try {
    return parseArgs({ args: [...args], options, strict: true, allowPositionals });
  } catch (error) {
    throw new UsageError(
      `${(error as Error).message.replace(/\. To specify a positional.*$/, '')}. See company-data --help.`,
    );
  }
}

function connection(values: { 'base-url'?: string; 'api-key'?: string; timeout?: string }) {
  return {
    baseURL: values['base-url'],
    apiKey: values['api-key'],
    timeout: integer('--timeout', values.timeout),
  };
}

function integer(flag: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw)) throw new UsageError(`${flag} expects a whole number, got "${raw}".`);
  return Number(raw);
}

function limit(flag: string, raw: string | undefined): number | 'all' | undefined {
  if (raw === 'all') return 'all';
  if (raw !== undefined && !/^\d+$/.test(raw))
    throw new UsageError(`${flag} expects a whole number or "all", got "${raw}".`);
  return integer(flag, raw);
}

// company-data check: its options and their parsing.

/** What `company-data check` was asked. */
export interface CheckCommandOptions extends ConnectionOptions {
  readonly list: CopyListName;
  /** The copy to check: an NDJSON file, or a PostgreSQL database. */
  readonly destination: CopyCommandOptions['destination'];
  /** Store what the check finds (PostgreSQL only). */
  readonly repair: boolean;
  readonly concurrency: number;
  /** How long a repair waits for another run to let the copy go (ms); 0 refuses at once. */
  readonly wait: number;
}

const CHECK = {
  ...CONNECTION,
  out: { type: 'string' },
  to: { type: 'string' },
  schema: { type: 'string' },
  repair: { type: 'boolean' },
  concurrency: { type: 'string' },
  wait: { type: 'string' },
  json: { type: 'boolean' },
} as const;

function checkRequest(argv: readonly string[]): CliRequest {
  const { values, positionals } = parse(argv, CHECK, true);
  const list = listOf('check', positionals, ['check', 'checks']);
  const destination = destinationOf('check', values);
  const repair = values.repair ?? false;
  if (repair && 'file' in destination) throw new UsageError(fileRepairRefusal(list, destination.file));
  if (values.wait !== undefined && !repair)
    throw new UsageError('--wait goes with --repair: a check alone takes no lock, so it never waits.');
  return {
    command: 'check',
    json: values.json ?? false,
    options: {
      ...connection(values),
      list,
      destination,
      repair,
      concurrency: concurrencyOf(values.concurrency, CHECK_DEFAULT_CONCURRENCY),
      wait: duration('--wait', values.wait) ?? 0,
    },
  };
}
