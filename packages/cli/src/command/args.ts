import { type ParseArgsConfig, parseArgs } from 'node:util';
import { closestName } from '@company-data/contract/runtime';
import { MAX_CONCURRENCY } from '@company-data/sdk';
import { CHECK_DEFAULT_CONCURRENCY } from '../check/check-copy.js';
import { fileRepairRefusal } from '../check/rebuild.js';
import { type ConnectionOptions, DEFAULT_MAX_WAIT_MS } from '../connection.js';
import type { CopyMode } from '../copy/copy-list.js';
import { COPY_LISTS, type CopyListName, isCopyList } from '../copy/lists.js';
import { DURATION_FORMAT, parseDuration } from '../duration.js';
import { UsageError } from '../errors.js';
import type { SnapshotOptions } from '../snapshot/snapshot.js';
import type { VerifyOptions } from '../verify/verify.js';
import { USAGE } from './usage.js';

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
  /** The longest 429 wait (ms) the run sits out; a longer one stops it, to run again later. */
  readonly maxWait: number;
}

const CONNECTION = {
  'base-url': { type: 'string' },
  'api-key': { type: 'string' },
  timeout: { type: 'string' },
  // Every command's; read by run.ts (a failure's stack), also when the rest of the line is refused.
  debug: { type: 'boolean' },
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
  'max-wait': { type: 'string' },
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

/** Each command's options: what it parses, and where a flag it does not take belongs. */
const OPTIONS: Readonly<Record<Command, NonNullable<ParseArgsConfig['options']>>> = {
  snapshot: SNAPSHOT,
  verify: VERIFY,
  export: EXPORT,
  sync: SYNC,
  check: CHECK,
};

type Command = (typeof COMMANDS)[number];

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
    const { values } = parse(rest, command, VERIFY, false);
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
    const { values, positionals } = parse(rest, command, command === 'sync' ? SYNC : EXPORT, true);
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
    'max-wait'?: string;
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
    maxWait: duration('--max-wait', values['max-wait']) ?? DEFAULT_MAX_WAIT_MS,
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
  if (!isCopyList(list)) {
    const near = closestName(list, COPY_LISTS);
    const hint = near === undefined ? '' : ` (did you mean "${near}"?)`;
    throw new UsageError(`Unknown list "${list}"${hint}: use one of ${lists}.`);
  }
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
  const { values, positionals } = parse(argv, 'snapshot', SNAPSHOT, true);
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
  command: Command,
  options: Options,
  allowPositionals: boolean,
) {
  try {
    return parseArgs({ args: [...args], options, strict: true, allowPositionals });
  } catch (error) {
    throw new UsageError(flagProblem(command, args, error as Error & { code?: string }));
  }
}

/**
 * What `parseArgs` refused, in one line: an unknown flag with the closest one this command takes, or the
 * command(s) it belongs to; a flag without its value; a value given to a flag that takes none; an argument
 * to `verify`, which takes none.
 */
function flagProblem(command: Command, args: readonly string[], error: Error & { code?: string }): string {
  const quoted = /'([^']*)'/.exec(error.message)?.[1] ?? '';
  if (error.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL')
    return `${command} takes options only; unexpected "${quoted}".`;
  const flag = quoted.split(' ')[0] as string;
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || !takes(command, flag))
    return unknownFlag(command, args, flag);
  const option = OPTIONS[command][flag.slice(2)];
  if (option?.type === 'boolean') {
    const given = args.find((arg) => arg.startsWith(`${flag}=`)) ?? flag;
    return `${flag} takes no value: write ${flag} alone, not ${given}.`;
  }
  const dash =
    args[args.indexOf(flag) + 1] === undefined ? '' : ` (a value starting with "-" goes as ${flag}=-…)`;
  return `${flag} needs a value: ${flag} ${placeholder(flag)}${dash}.`;
}

/** Whether `command` takes the flag `--name`. */
function takes(command: Command, flag: string): boolean {
  return flag.startsWith('--') && Object.hasOwn(OPTIONS[command], flag.slice(2));
}

function unknownFlag(command: Command, args: readonly string[], flag: string): string {
  if (COMMANDS.some((other) => takes(other, flag)))
    return `${belongsTo(command, args, flag, flag)}, not ${command}.`;
  const flags = (of: readonly Command[]) => [...new Set(of.flatMap((name) => Object.keys(OPTIONS[name])))];
  const named = (names: readonly string[]) => (flag.startsWith('--') ? names.map((name) => `--${name}`) : []);
  const near = closestName(flag, [...named(flags([command])), '--help']);
  if (near !== undefined) return `Unknown option ${flag} for ${command} (did you mean ${near}?).`;
  const meant = closestName(flag, named(flags(COMMANDS)));
  const hint = meant === undefined ? '' : `; ${belongsTo(command, args, flag, meant)}`;
  return `Unknown option ${flag} for ${command}${hint}.`;
}

/**
 * Which commands take `flag` (given as `typed`), with the command line to use when one does: "--look-back
 * belongs to sync (company-data sync calls … --look-back 24h)", the list kept between export, sync and check.
 */
function belongsTo(command: Command, args: readonly string[], typed: string, flag: string): string {
  const owners = COMMANDS.filter((other) => takes(other, flag));
  const [owner] = owners;
  if (owner === undefined || owners.length > 1)
    return `${flag} belongs to ${owners.slice(0, -1).join(', ')} and ${owners.at(-1)}`;
  const at = args.findIndex((arg) => arg === typed || arg.startsWith(`${typed}=`));
  const inline = args[at]?.includes('=') ? args[at]?.slice(typed.length + 1) : undefined;
  const next = args[at + 1];
  const following = inline === undefined && next !== undefined && !next.startsWith('-') ? next : undefined;
  // A token (a webhook's) shows as its placeholder: the line may end up in a log.
  const shown = placeholder(flag).includes('token') ? placeholder(flag) : (inline ?? following);
  const value = OPTIONS[owner][flag.slice(2)]?.type === 'boolean' ? '' : ` ${shown ?? placeholder(flag)}`;
  const takesList = (name: Command) => name === 'export' || name === 'sync' || name === 'check';
  // The list: the first argument left once the flag and its value are taken out.
  const rest = args.filter((_, index) => index !== at && (following === undefined || index !== at + 1));
  const list =
    takesList(command) && takesList(owner)
      ? parseArgs({ args: rest, options: OPTIONS[command], strict: false }).positionals[0]
      : undefined;
  return `${flag} belongs to ${owner} (company-data ${owner}${list === undefined ? '' : ` ${list}`} … ${flag}${value})`;
}

/** A flag's value as the usage text shows it (`<file>`, `<duration>`). */
function placeholder(flag: string): string {
  return new RegExp(`(?<![\\w-])${flag} (<[^>]+>)`).exec(USAGE)?.[1] ?? '<value>';
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

function checkRequest(argv: readonly string[]): CliRequest {
  const { values, positionals } = parse(argv, 'check', CHECK, true);
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
