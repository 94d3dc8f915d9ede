import { type ParseArgsConfig, parseArgs } from 'node:util';
import { UsageError } from '../errors.js';
import type { SnapshotOptions } from '../snapshot/snapshot.js';
import type { VerifyOptions } from '../verify/verify.js';

/** What the command line asked for. */
export type CliRequest =
  | { readonly command: 'help' }
  | { readonly command: 'version' }
  | { readonly command: 'snapshot'; readonly options: SnapshotOptions }
  | { readonly command: 'verify'; readonly options: VerifyOptions; readonly json: boolean };

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
} as const;

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
  throw new UsageError(`Unknown command "${command}": use snapshot or verify.`);
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
