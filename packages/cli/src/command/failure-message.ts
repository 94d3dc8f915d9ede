// Every failure of a command, as the one line a person (or a cron mail) reads: what went wrong, what to do,
// and the exit code that tells a scheduler whether to try again (1), to fix the configuration (2) or to come
// back later (75). No stack trace: `--debug` (or DEBUG=company-data) prints it below the line.
import { dirname } from 'node:path';
import {
  AuthenticationError,
  CompanyDataError,
  ConfigurationError,
  ConnectionError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
  TimeoutError,
} from '@company-data/sdk';
import { inToolWords, isPermanentConnectionFailure, MAX_RETRIES, refusedKeyError } from '../connection.js';
import { CopyError, CopyLockedError, DestinationRefusedError } from '../copy/errors.js';
import { errorCode } from '../error-code.js';
import { UsageError } from '../errors.js';
import { EXIT } from './exit-codes.js';

/** What a failed run leaves, said after its failure: one text per kind of failure. */
export interface Kept {
  /** After an interrupt (130). */
  readonly interrupted: string;
  /** After a failure that running again may mend (1). */
  readonly retry: string;
  /** After a failure that only a fix of the command or its configuration mends (2). */
  readonly fix: string;
  /** After "come back later" (75), whose line says when. */
  readonly later: string;
}

const SNAPSHOT_FAILED =
  'Nothing was written; a snapshot keeps what it fetched and resumes when you run the same command again.';

/** What a snapshot (or a verify, which writes nothing) leaves. */
export const SNAPSHOT_KEPT: Kept = {
  interrupted:
    'Nothing was written; a snapshot keeps what it fetched and resumes when you run the same command again (--fresh starts over).',
  retry: SNAPSHOT_FAILED,
  fix: 'Nothing was written.',
  later: SNAPSHOT_FAILED,
};

/** What a copy that has stored pages (in this run or before) leaves. */
export const COPY_KEPT: Kept = {
  interrupted: 'Every page stored before stays; run the same command again to go on.',
  retry: 'Every page stored before stays; run the same command again to go on.',
  fix: 'Every page stored before stays.',
  later: 'Every page stored before stays.',
};

/** What a copy that has stored nothing yet leaves: nothing (no file, no table rows). */
export const NOTHING_STORED: Kept = {
  interrupted: 'Nothing was written.',
  retry: 'Then run the same command again.',
  fix: 'Nothing was written.',
  later: '',
};

const CHECK_INCOMPLETE =
  'The check is incomplete (a repair keeps what it stored); run the same command again.';

/** What a check leaves: nothing of a plain check, what a repair stored. */
export const CHECK_KEPT: Kept = {
  interrupted: CHECK_INCOMPLETE,
  retry: CHECK_INCOMPLETE,
  fix: 'The check is incomplete (a repair keeps what it stored).',
  later: 'The check is incomplete (a repair keeps what it stored).',
};

/** What a failure says, and where. */
export interface FailureContext {
  /** Where the API key was set: the flag, or the variable. */
  readonly keyFrom: string;
  /** Where the base URL was set, in words: `--base-url`, or the variable. */
  readonly baseURLFrom: string;
  /** What the run leaves. */
  readonly kept: Kept;
  /** Whether the run was stopped by a signal (Ctrl+C, SIGTERM). */
  readonly interrupted: boolean;
  /** `--max-wait` in ms, for a command that has it. */
  readonly maxWait?: number | undefined;
  /** The current time in epoch ms: a quota's wait becomes the time to run again. */
  readonly now: () => number;
  /** The connection string of `--to`, when the copy goes to PostgreSQL (its password is never shown). */
  readonly postgres?: string | undefined;
  /** The copy's file or table, as the command's messages name it. */
  readonly destination?: string | undefined;
  /** The copy's file, its path resolved (as the file system's errors name it). */
  readonly file?: string | undefined;
}

/** A failure, said: the exit code and the line (without the `company-data: ` prefix). */
export interface Failure {
  readonly code: number;
  readonly line: string;
}

/**
 * Turns anything a command threw into the line that says it, and its exit code.
 *
 * @param error - what was thrown.
 * @param context - where the settings came from, what the run leaves, the destination.
 * @returns the exit code and one line (newlines in a message are joined).
 * @example
 * ```ts
 * const { code, line } = describeFailure(error, context);
 * io.stderr.write(`company-data: ${line}\n`);
 * ```
 */
export function describeFailure(error: unknown, context: FailureContext): Failure {
  if (error instanceof CopyLockedError) return { code: EXIT.later, line: error.message };
  const { kept } = context;
  if (context.interrupted) return said(EXIT.interrupted, 'interrupted.', kept.interrupted);
  // Usage: the line, and where every option is told.
  if (error instanceof UsageError)
    return { code: EXIT.usage, line: `${error.message}\nRun company-data --help for every option.` };
  if (error instanceof DestinationRefusedError) return said(EXIT.usage, error.message);
  if (error instanceof CopyError) return said(EXIT.failed, error.message);
  if (error instanceof CompanyDataError) return apiFailure(error, context);
  const code = errorCode(error);
  if (isDatabaseError(error) || (context.postgres !== undefined && isSocketFailure(error, code)))
    return databaseFailure(error, code, context);
  if (code !== undefined && FILE_FAILURES[code] !== undefined)
    return fileFailure(error as NodeJS.ErrnoException, code, context);
  return said(EXIT.failed, sentence(messageOf(error)), kept.retry);
}

/**
 * The line of a failure nothing caught (a bug; an event emitter's error without a listener): exit 1.
 *
 * @param error - what was thrown.
 * @returns the exit code and the line.
 * @example
 * ```ts
 * process.on('uncaughtException', (error) => process.stderr.write(`company-data: ${describeUncaught(error).line}\n`));
 * ```
 */
export function describeUncaught(error: unknown): Failure {
  return said(
    EXIT.failed,
    `unexpected failure: ${messageOf(error)}.`,
    'Run the same command again with --debug for its stack, and report it; a copy keeps every page it stored.',
  );
}

/**
 * Whether the person asked for a failure's stack: `--debug` on the command line, or the DEBUG variable
 * naming the tool (`company-data`, `company-data*`, `*`; several names apart by commas or spaces) or set to
 * `1` or `true`.
 *
 * @param argv - the arguments after the program name.
 * @param env - the environment.
 */
export function debugRequested(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  if (argv.includes('--debug')) return true;
  return (env.DEBUG ?? '')
    .split(/[\s,]+/)
    .some((name) => name === '1' || name === 'true' || name === '*' || name.startsWith('company-data'));
}

/**
 * The stack of an error and of each of its causes, for `--debug`.
 *
 * @param error - what was thrown.
 * @returns the text, ending in a newline.
 */
export function stackOf(error: unknown): string {
  const parts: string[] = [];
  for (let current = error, depth = 0; current !== undefined && depth < 5; depth++) {
    parts.push(current instanceof Error ? (current.stack ?? String(current)) : String(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  return `${parts.join('\nCaused by: ')}\n`;
}

/** A message as a sentence: with a full stop, unless it ends with one already. */
function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** One line: the parts joined, a message's own newlines too. */
function said(code: number, ...parts: string[]): Failure {
  const line = parts
    .filter((part) => part !== '')
    .join(' ')
    .replace(/\s*\n\s*/g, ' ');
  return { code, line };
}

function apiFailure(error: CompanyDataError, context: FailureContext): Failure {
  const { kept } = context;
  const message = inToolWords(error.message, context.baseURLFrom);
  if (error instanceof AuthenticationError)
    return said(EXIT.usage, refusedKeyError(error, context.keyFrom).message, kept.fix);
  if (error instanceof RateLimitError) return said(EXIT.later, quotaSpent(error, context), kept.later);
  if (error instanceof ConfigurationError) return said(EXIT.usage, sentence(message), kept.fix);
  if (error instanceof PermissionDeniedError)
    return said(
      EXIT.usage,
      `${message}: the API key may not read this; use a key that has the permission (${context.keyFrom}).`,
      kept.fix,
    );
  if (isPermanentConnectionFailure(error)) return said(EXIT.usage, sentence(message), kept.fix);
  if (error instanceof TimeoutError)
    return said(
      EXIT.failed,
      `${message}: the server did not answer in time; give it longer with --timeout <ms>, or wait for it to recover.`,
      kept.retry,
    );
  if (error instanceof ConnectionError)
    return said(
      EXIT.failed,
      `${message}: the API could not be reached after ${MAX_RETRIES} retries; check the network and the server.`,
      kept.retry,
    );
  if (error instanceof ServerError)
    return said(
      EXIT.failed,
      `${message}: the API kept failing after ${MAX_RETRIES} retries; wait for it to recover.`,
      kept.retry,
    );
  return said(EXIT.failed, sentence(message), kept.retry);
}

/**
 * A moment as the messages write it: UTC, ISO 8601, to the second (rounded up: not before the moment).
 *
 * @param epochMs - the moment.
 * @example
 * ```ts
 * utcTime(Date.parse('2026-06-01T12:00:00.250Z')); // '2026-06-01T12:00:01Z'
 * ```
 */
export function utcTime(epochMs: number): string {
  return new Date(Math.ceil(epochMs / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** A 429 the run does not sit out: when to come back. */
function quotaSpent(error: RateLimitError, context: FailureContext): string {
  const seconds = error.retryAfter;
  if (seconds === undefined)
    return `the API's quota is spent: it kept answering 429 (too many requests) after ${MAX_RETRIES} retries. Run the same command again later.`;
  const at = utcTime(context.now() + seconds * 1000);
  const limit =
    context.maxWait !== undefined && seconds * 1000 > context.maxWait
      ? `, longer than --max-wait allows (${context.maxWait / 1000} s)`
      : '';
  const longer = limit === '' ? '' : ', or allow a longer --max-wait';
  return `the API's quota is spent: it asks to wait ${seconds} s${limit}. Run the same command again after ${at}${longer}.`;
}

/** A `pg` error the server sent (it has a SQLSTATE and a severity). */
function isDatabaseError(error: unknown): error is Error & { code: string } {
  if (!(error instanceof Error)) return false;
  const { code, severity } = error as { code?: unknown; severity?: unknown };
  return typeof code === 'string' && SQLSTATE.test(code) && typeof severity === 'string';
}

const SQLSTATE = /^[0-9A-Z]{5}$/;

/** `pg`'s own words for a connection that went away, and the socket errors that say so. */
const CONNECTION_LOST =
  /Connection terminated|not queryable|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ECONNREFUSED|ENOTFOUND|EAI_AGAIN/;

/** A failure of the socket to the database (no SDK error: the SDK wraps its own). */
function isSocketFailure(error: unknown, code: string | undefined): boolean {
  if (!(error instanceof Error)) return false;
  if ((error as NodeJS.ErrnoException).path !== undefined) return false; // a file's
  return CONNECTION_LOST.test(code ?? '') || CONNECTION_LOST.test(error.message);
}

/** How the failures name the database: never with its password. */
interface Where {
  /** `PostgreSQL at <host>:<port>`. */
  readonly server: string;
  readonly host: string;
  /** `the user <name>`. */
  readonly user: string;
  readonly database: string;
  /** ` (<schema>.<list>)`, or nothing. */
  readonly table: string;
}

interface DatabaseFailure {
  readonly code: number;
  readonly what: (where: Where) => string;
  readonly todo: (where: Where) => string;
}

const UNTIL_BACK = () => 'wait until it accepts connections again';
const REACHABLE = () => 'check that it is up and reachable';

/**
 * What a PostgreSQL failure means for the person: by its SQLSTATE, its class (the first two characters), or
 * the socket's error.
 */
const DATABASE_FAILURES: Record<string, DatabaseFailure> = {
  // The server ends the session: a shutdown, the loss of its postmaster, an administrator's
  // pg_terminate_backend (its message says which).
  '57P01': {
    code: EXIT.failed,
    what: (where) => `${where.server} ended this run's session`,
    todo: UNTIL_BACK,
  },
  '57P02': { code: EXIT.failed, what: (where) => `${where.server} crashed`, todo: UNTIL_BACK },
  '57P03': {
    code: EXIT.failed,
    what: (where) => `${where.server} is starting up or shutting down`,
    todo: UNTIL_BACK,
  },
  '28P01': {
    code: EXIT.usage,
    what: (where) => `${where.server} refused the login of ${where.user}`,
    todo: () => 'fix the user or the password in --to',
  },
  '28000': {
    code: EXIT.usage,
    what: (where) => `${where.server} refused the login of ${where.user}`,
    todo: () => "fix the user in --to, or let it in (the server's pg_hba.conf)",
  },
  '3D000': {
    code: EXIT.usage,
    what: (where) => `${where.server} has no database ${where.database}`,
    todo: (where) => `create it (createdb ${where.database}), or fix the database in --to`,
  },
  '42501': {
    code: EXIT.usage,
    what: (where) =>
      `${where.user} may not create or write the copy's tables${where.table} in ${where.server}`,
    todo: () =>
      'grant it the rights on the database and the schema, or give --to a user that has them (or --schema one it may write)',
  },
  '53100': {
    code: EXIT.failed,
    what: (where) => `the disk of ${where.server} is full`,
    todo: () => 'free some space on it',
  },
  // Insufficient resources: out of memory, too many connections.
  '53': {
    code: EXIT.failed,
    what: (where) => `${where.server} is out of resources`,
    todo: () => 'wait, or ask its administrator',
  },
  // Connection exceptions.
  '08': { code: EXIT.failed, what: (where) => `the connection to ${where.server} failed`, todo: REACHABLE },
  ECONNREFUSED: {
    code: EXIT.failed,
    what: (where) => `${where.server} refused the connection`,
    todo: () => 'start it, or fix the host and the port in --to',
  },
  ENOTFOUND: {
    code: EXIT.usage,
    what: (where) => `the host ${where.host} of --to was not found`,
    todo: () => 'fix the host in --to',
  },
};

/** A connection that went away, with no SQLSTATE: the socket closed or reset. */
const LOST: DatabaseFailure = {
  code: EXIT.failed,
  what: (where) => `the connection to ${where.server} was lost`,
  todo: REACHABLE,
};

/** Any other error of the server's. */
const OTHER: DatabaseFailure = {
  code: EXIT.failed,
  what: (where) => `${where.server} failed`,
  todo: () => "see the server's log",
};

function whereOf(context: FailureContext): Where {
  let url: URL | undefined;
  try {
    url = new URL(context.postgres ?? '');
  } catch {
    url = undefined;
  }
  const host = url?.hostname || url?.searchParams.get('host') || 'localhost';
  const user = decodeURIComponent(url?.username ?? '');
  return {
    server: `PostgreSQL at ${host}:${url?.port || '5432'}`,
    host,
    user: user ? `the user ${user}` : 'the user',
    database: decodeURIComponent(url?.pathname.slice(1) ?? '') || user || 'postgres',
    table: context.destination === undefined ? '' : ` (${context.destination})`,
  };
}

function databaseFailure(error: unknown, code: string | undefined, context: FailureContext): Failure {
  const sqlState = code !== undefined && SQLSTATE.test(code);
  const failure =
    (code === undefined ? undefined : DATABASE_FAILURES[code]) ??
    (sqlState ? (DATABASE_FAILURES[code.slice(0, 2)] ?? OTHER) : LOST);
  const where = whereOf(context);
  const detail = sqlState ? `${code}: ${messageOf(error)}` : messageOf(error);
  const line = `${failure.what(where)} (${detail}): ${failure.todo(where)}.`;
  return said(failure.code, line, failure.code === EXIT.usage ? context.kept.fix : context.kept.retry);
}

/** An error's message; for an `AggregateError` (no message of its own), its errors'. */
function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.message) return error.message;
  const { errors, code } = error as { errors?: unknown; code?: unknown };
  if (Array.isArray(errors) && errors.length > 0) return errors.map(messageOf).join('; ');
  return typeof code === 'string' ? code : error.name;
}

/** What a file system error means for the person: said of the path it names, and of the copy's file. */
const FILE_FAILURES: Record<string, { code: number; advice: (path: string, file: boolean) => string }> = {
  EACCES: { code: EXIT.usage, advice: (path, file) => notWritable(path, file) },
  EPERM: { code: EXIT.usage, advice: (path, file) => notWritable(path, file) },
  EROFS: {
    code: EXIT.usage,
    advice: (path) => `${dirname(path)} is on a read-only file system: give a file on a writable one`,
  },
  ENOSPC: { code: EXIT.failed, advice: (path) => `the disk holding ${path} is full: free some space` },
  EDQUOT: {
    code: EXIT.failed,
    advice: (path) => `this user's disk quota is spent on the disk holding ${path}: free some space`,
  },
  EISDIR: { code: EXIT.usage, advice: (path) => `${path} is a folder: give a file` },
  ENOENT: {
    code: EXIT.usage,
    advice: (path) => `${path} is not there: check that the folder ${dirname(path)} exists`,
  },
};

function notWritable(path: string, file: boolean): string {
  return file
    ? `this user may not write ${path}: give another file, or let it write this one`
    : `this user may not write in the folder ${dirname(path)}: give a file in a folder it may write, or let it write there`;
}

function fileFailure(error: NodeJS.ErrnoException, code: string, context: FailureContext): Failure {
  const known = FILE_FAILURES[code] as (typeof FILE_FAILURES)[string];
  // A write through an open file names no path: then it is the copy's file.
  const path = error.path ?? context.file ?? context.destination ?? 'the file';
  const line = `${known.advice(path, path === context.file)} (${error.message}).`;
  return said(known.code, line, known.code === EXIT.usage ? context.kept.fix : context.kept.retry);
}
