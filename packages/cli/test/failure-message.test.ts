// Every failure a command meets, as its one line and exit code (command/failure-message.ts). The file system's
// errors are real ones, made here: as root (CI) a folder's permissions stop nothing, so EACCES comes from
// asking to execute a file that is not executable (refused even to root), ENOSPC from writing to /dev/full.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { access, constants, open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ConfigurationError,
  InvalidResponseError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
  TimeoutError,
} from '@company-data/sdk';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  COPY_KEPT,
  debugRequested,
  describeFailure,
  describeUncaught,
  type FailureContext,
  NOTHING_STORED,
  SNAPSHOT_KEPT,
  stackOf,
} from '../src/command/failure-message.js';
import { LockLostError } from '../src/copy/errors.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'failure-message-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const context: FailureContext = {
  keyFrom: 'COMPANY_DATA_API_KEY',
  baseURLFrom: '--base-url',
  kept: COPY_KEPT,
  interrupted: false,
  maxWait: 300_000,
  now: () => Date.parse('2026-06-01T12:00:00Z'),
  destination: 'calls.ndjson',
};

/** What a call rejected with. */
async function thrown(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable('it did not fail'),
    (error: unknown) => error,
  );
}

describe('the file system', () => {
  it('EACCES: fix the permissions (exit 2)', async () => {
    const file = join(dir, 'calls.ndjson');
    writeFileSync(file, '', { mode: 0o644 });
    const error = await thrown(access(file, constants.X_OK));
    expect(describeFailure(error, { ...context, file })).toEqual({
      code: 2,
      line: `this user may not write ${file}: give another file, or let it write this one (EACCES: permission denied, access '${file}'). Every page stored before stays.`,
    });
    const lock = join(dir, 'calls.ndjson.lock');
    expect(describeFailure(Object.assign(error as Error, { path: lock }), { ...context, file }).line).toMatch(
      new RegExp(`^this user may not write in the folder ${dir}: give a file in a folder it may write`),
    );
  });

  it('ENOSPC: free some space, then run again (exit 1); a write names no path, so the copy is named', async () => {
    const handle = await open('/dev/full', 'a');
    const error = await thrown(handle.appendFile('{"id":"a"}\n')).finally(() => handle.close());
    expect(
      describeFailure(error, { ...context, kept: NOTHING_STORED, file: join(dir, 'calls.ndjson') }),
    ).toEqual({
      code: 1,
      line: `the disk holding ${join(dir, 'calls.ndjson')} is full: free some space (ENOSPC: no space left on device, write). Then run the same command again.`,
    });
  });

  it('EISDIR and ENOENT: give a file, check its folder (exit 2)', async () => {
    const isDir = await thrown(open(dir, 'a'));
    expect(describeFailure(isDir, context)).toEqual({
      code: 2,
      line: `${dir} is a folder: give a file (EISDIR: illegal operation on a directory, open '${dir}'). Every page stored before stays.`,
    });
    const missing = join(dir, 'gone', 'calls.ndjson');
    const noEntry = await thrown(open(missing, 'a'));
    expect(describeFailure(noEntry, { ...context, kept: NOTHING_STORED })).toEqual({
      code: 2,
      line: `${missing} is not there: check that the folder ${join(dir, 'gone')} exists (ENOENT: no such file or directory, open '${missing}'). Nothing was written.`,
    });
  });
});

describe('PostgreSQL', () => {
  /** An error as the server sends it (pg's own class: a SQLSTATE and a severity). */
  const serverError = (code: string, message: string) =>
    Object.assign(new pg.DatabaseError(message, message.length, 'error'), { code, severity: 'ERROR' });
  const at = { ...context, postgres: 'postgres://copier:s3cret@db.internal:6543/warehouse' };

  it('a full disk, a server starting, a broken connection, another error: each says what to do', () => {
    expect(describeFailure(serverError('53100', 'could not extend file "base/5/16384"'), at)).toEqual({
      code: 1,
      line: 'the disk of PostgreSQL at db.internal:6543 is full (53100: could not extend file "base/5/16384"): free some space on it. Every page stored before stays; run the same command again to go on.',
    });
    expect(describeFailure(serverError('57P03', 'the database system is starting up'), at).line).toBe(
      'PostgreSQL at db.internal:6543 is starting up or shutting down (57P03: the database system is starting up): wait until it accepts connections again. Every page stored before stays; run the same command again to go on.',
    );
    expect(describeFailure(serverError('53300', 'sorry, too many clients already'), at).line).toMatch(
      /^PostgreSQL at db\.internal:6543 is out of resources \(53300: sorry, too many clients already\): wait/,
    );
    expect(describeFailure(serverError('08006', 'connection failure'), at).code).toBe(1);
    expect(describeFailure(serverError('22P02', 'invalid input syntax for type json'), at)).toEqual({
      code: 1,
      line: "PostgreSQL at db.internal:6543 failed (22P02: invalid input syntax for type json): see the server's log. Every page stored before stays; run the same command again to go on.",
    });
    expect(describeFailure(new Error('Connection terminated unexpectedly'), at).line).toBe(
      'the connection to PostgreSQL at db.internal:6543 was lost (Connection terminated unexpectedly): check that it is up and reachable. Every page stored before stays; run the same command again to go on.',
    );
  });

  it('an unknown host is a fix of --to (exit 2); a refusal on two addresses says both; never the password', () => {
    const unknown = Object.assign(new Error('getaddrinfo ENOTFOUND db.internal'), { code: 'ENOTFOUND' });
    expect(describeFailure(unknown, { ...at, kept: NOTHING_STORED })).toEqual({
      code: 2,
      line: 'the host db.internal of --to was not found (getaddrinfo ENOTFOUND db.internal): fix the host in --to. Nothing was written.',
    });
    // `localhost` is tried on ::1 and on 127.0.0.1: Node says so with an AggregateError that has no message.
    const both = Object.assign(
      new AggregateError([
        new Error('connect ECONNREFUSED ::1:5432'),
        new Error('connect ECONNREFUSED 127.0.0.1:5432'),
      ]),
      { code: 'ECONNREFUSED' },
    );
    const refused = describeFailure(both, { ...at, postgres: 'postgres://me:s3cret@localhost/db' });
    expect(refused.line).toBe(
      'PostgreSQL at localhost:5432 refused the connection (connect ECONNREFUSED ::1:5432; connect ECONNREFUSED 127.0.0.1:5432): start it, or fix the host and the port in --to. Every page stored before stays; run the same command again to go on.',
    );
    expect(refused.line).not.toContain('s3cret');
  });
});

describe('the API', () => {
  it('a spent quota without a wait said, a timeout, a failing server, a key without the permission', () => {
    expect(describeFailure(new RateLimitError('Rate limited (GET …/calls/)', undefined), context)).toEqual({
      code: 75,
      line: "the API's quota is spent: it kept answering 429 (too many requests) after 5 retries. Run the same command again later. Every page stored before stays.",
    });
    // A wait within --max-wait that the retries did not outlast: no word of --max-wait.
    expect(describeFailure(new RateLimitError('Rate limited', 30), context).line).toBe(
      "the API's quota is spent: it asks to wait 30 s. Run the same command again after 2026-06-01T12:00:30Z. Every page stored before stays.",
    );
    expect(describeFailure(new TimeoutError('Request timed out after 60000 ms (GET …)'), context)).toEqual({
      code: 1,
      line: 'Request timed out after 60000 ms (GET …): the server did not answer in time; give it longer with --timeout <ms>, or wait for it to recover. Every page stored before stays; run the same command again to go on.',
    });
    expect(describeFailure(new ServerError('Server error 503 (GET …)', { status: 503 }), context).line).toBe(
      'Server error 503 (GET …): the API kept failing after 5 retries; wait for it to recover. Every page stored before stays; run the same command again to go on.',
    );
    expect(describeFailure(new PermissionDeniedError('Permission denied (GET …/calls/)'), context)).toEqual({
      code: 2,
      line: 'Permission denied (GET …/calls/): the API key may not read this; use a key that has the permission (COMPANY_DATA_API_KEY). Every page stored before stays.',
    });
    expect(describeFailure(new ConfigurationError('invalid_option', 'Bad option.'), context).code).toBe(2);
  });

  it('an answer that does not match the contract is one line, its issues joined', () => {
    const error = new InvalidResponseError(
      'Response does not match the schema (GET …):\n✖ Invalid input\n  → at data[0].id',
      [],
    );
    expect(describeFailure(error, { ...context, kept: SNAPSHOT_KEPT })).toEqual({
      code: 1,
      line: 'Response does not match the schema (GET …): ✖ Invalid input → at data[0].id. Nothing was written; a snapshot keeps what it fetched and resumes when you run the same command again.',
    });
  });
});

describe('the rest', () => {
  it('an interrupt, a lost lock, something unknown', () => {
    expect(describeFailure(new Error('aborted'), { ...context, interrupted: true })).toEqual({
      code: 130,
      line: 'interrupted. Every page stored before stays; run the same command again to go on.',
    });
    expect(describeFailure(new LockLostError('calls.ndjson', 'gone'), context).code).toBe(1);
    expect(describeFailure('a string', { ...context, kept: NOTHING_STORED })).toEqual({
      code: 1,
      line: 'a string. Then run the same command again.',
    });
    expect(describeUncaught(new TypeError('x is not a function'))).toEqual({
      code: 1,
      line: 'unexpected failure: x is not a function. Run the same command again with --debug for its stack, and report it; a copy keeps every page it stored.',
    });
  });

  it('--debug or DEBUG naming the tool asks for the stack, with its causes', () => {
    expect(debugRequested(['export', '--debug'], {})).toBe(true);
    for (const value of ['company-data', 'express,company-data', 'company-data:*', '*', '1', 'true'])
      expect(debugRequested([], { DEBUG: value }), value).toBe(true);
    for (const value of [undefined, '', 'express:*', '0'])
      expect(debugRequested([], { DEBUG: value }), String(value)).toBe(false);
    const stack = stackOf(new Error('outer', { cause: new Error('inner') }));
    expect(stack).toMatch(/^Error: outer\n\s+at [\s\S]*\nCaused by: Error: inner\n\s+at [\s\S]*\n$/);
    expect(stackOf('plain')).toBe('plain\n');
  });
});
