// A mistyped command line gets one line saying what to type instead: the closest flag of that command, the
// command a flag belongs to, the closest list; a flag without its value, a value given to a flag that takes
// none. Then the pointer to --help, once, and exit 2, before anything is read or written.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCliArgs } from '../src/command/args.js';
import { UsageError } from '../src/errors.js';
import { runChild } from './support/run.js';

/** The message `parseCliArgs` refuses a command line with (words split on spaces). */
function refusal(line: string): string {
  try {
    parseCliArgs(line.split(' '));
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as UsageError).message;
  }
  throw new Error(`"${line}" was accepted`);
}

describe('parseCliArgs: an unknown flag, for every command', () => {
  it.each([
    ['export users --ot x.ndjson', 'Unknown option --ot for export (did you mean --out?).'],
    ['sync users --ot x.ndjson', 'Unknown option --ot for sync (did you mean --out?).'],
    ['sync calls --out x --lookback 24h', 'Unknown option --lookback for sync (did you mean --look-back?).'],
    ['sync calls --out x --look-bak 24h', 'Unknown option --look-bak for sync (did you mean --look-back?).'],
    ['snapshot x.json --api-ky k', 'Unknown option --api-ky for snapshot (did you mean --api-key?).'],
    ['verify --api-ky k', 'Unknown option --api-ky for verify (did you mean --api-key?).'],
    ['export calls --api-ky k --out x', 'Unknown option --api-ky for export (did you mean --api-key?).'],
    ['sync calls --out x --api-ky=k', 'Unknown option --api-ky for sync (did you mean --api-key?).'],
    ['snapshot x.json --max-call 5', 'Unknown option --max-call for snapshot (did you mean --max-calls?).'],
    ['verify --page-sise 5', 'Unknown option --page-sise for verify (did you mean --page-size?).'],
    ['export calls --out x --hlep', 'Unknown option --hlep for export (did you mean --help?).'],
    // Nothing close: no guess.
    ['snapshot x.json --colour', 'Unknown option --colour for snapshot.'],
    ['export calls --out x -x', 'Unknown option -x for export.'],
    // A name every object has is no option.
    ['export calls --out x --constructor', 'Unknown option --constructor for export.'],
  ])('%s', (line, message) => {
    expect(refusal(line)).toBe(message);
  });
});

describe('parseCliArgs: a flag of another command says whose it is', () => {
  it.each([
    [
      'export calls --out x --look-back 24h',
      '--look-back belongs to sync (company-data sync calls … --look-back 24h), not export.',
    ],
    [
      'export --out x --look-back=24h calls',
      '--look-back belongs to sync (company-data sync calls … --look-back 24h), not export.',
    ],
    [
      'export calls --out x --look-back',
      '--look-back belongs to sync (company-data sync calls … --look-back <duration>), not export.',
    ],
    ['verify --out x', '--out belongs to export, sync and check, not verify.'],
    ['snapshot x.json --to postgres://h/d', '--to belongs to export, sync and check, not snapshot.'],
    ['snapshot x.json --json', '--json belongs to verify, export, sync and check, not snapshot.'],
    [
      'verify --max-calls 5',
      '--max-calls belongs to snapshot (company-data snapshot … --max-calls 5), not verify.',
    ],
    [
      'snapshot x.json --pages 3',
      '--pages belongs to verify (company-data verify … --pages 3), not snapshot.',
    ],
    [
      'export calls --out x --fresh',
      '--fresh belongs to snapshot (company-data snapshot … --fresh), not export.',
    ],
    [
      'snapshot x.json --look-back 1h',
      '--look-back belongs to sync (company-data sync … --look-back 1h), not snapshot.',
    ],
    // A webhook's token is not repeated: the line may end up in a log.
    [
      'export calls --out x --lead-webhook s3cret',
      '--lead-webhook belongs to verify (company-data verify … --lead-webhook <token|url>), not export.',
    ],
    // A typo of another command's flag: both at once.
    [
      'export calls --out x --lookback 24h',
      'Unknown option --lookback for export; --look-back belongs to sync (company-data sync calls … --look-back 24h).',
    ],
    [
      'export calls --out x --anonymise',
      'Unknown option --anonymise for export; --anonymize belongs to snapshot (company-data snapshot … --anonymize).',
    ],
  ])('%s', (line, message) => {
    expect(refusal(line)).toBe(message);
  });
});

describe('parseCliArgs: values, lists and arguments', () => {
  it.each([
    ['export calls --out', '--out needs a value: --out <file>.'],
    ['sync calls --to', '--to needs a value: --to <postgres://…>.'],
    ['export calls --to postgres://h/d --schema', '--schema needs a value: --schema <name>.'],
    ['verify --audience-webhook', '--audience-webhook needs a value: --audience-webhook <token|url>.'],
    [
      'export calls --out --json',
      '--out needs a value: --out <file> (a value starting with "-" goes as --out=-…).',
    ],
    ['export calls --out x --json=yes', '--json takes no value: write --json alone, not --json=yes.'],
    ['snapshot x.json --fresh=true', '--fresh takes no value: write --fresh alone, not --fresh=true.'],
    ['verify extra', 'verify takes options only; unexpected "extra".'],
    [
      'export call --out x',
      'Unknown list "call" (did you mean "calls"?): use one of calls, users, teams, recordings.',
    ],
    ['sync leads --out x', 'Unknown list "leads": use one of calls, users, teams, recordings.'],
  ])('%s', (line, message) => {
    expect(refusal(line)).toBe(message);
  });
});

describe('company-data with a mistyped command line, in a child process', () => {
  let parent: string;
  beforeAll(async () => {
    parent = await mkdtemp(join(tmpdir(), 'company-data-mistakes-'));
  });
  afterAll(async () => {
    await rm(parent, { recursive: true, force: true });
  });

  const POINTER = 'Run company-data --help for every option.';
  // Each child starts Node and loads the CLI: they run side by side.
  it.concurrent.each([
    ['export users --ot x.ndjson', 'Unknown option --ot for export (did you mean --out?).'],
    [
      'sync calls --out x.ndjson --lookback 24h',
      'Unknown option --lookback for sync (did you mean --look-back?).',
    ],
    [
      'sync calls --out x.ndjson --look-bak 24h',
      'Unknown option --look-bak for sync (did you mean --look-back?).',
    ],
    [
      'export calls --out x.ndjson --look-back 24h',
      '--look-back belongs to sync (company-data sync calls … --look-back 24h), not export.',
    ],
    ['verify --out x.ndjson', '--out belongs to export, sync and check, not verify.'],
    [
      'export call --out x.ndjson',
      'Unknown list "call" (did you mean "calls"?): use one of calls, users, teams, recordings.',
    ],
    [
      'exprot calls',
      'Unknown command "exprot" (did you mean "export"?): use snapshot, verify, export, sync or check.',
    ],
    ['export calls --out', '--out needs a value: --out <file>.'],
    ['export calls --out x.ndjson --json=yes', '--json takes no value: write --json alone, not --json=yes.'],
    ['snapshot x.json --api-ky k', 'Unknown option --api-ky for snapshot (did you mean --api-key?).'],
  ])('%s', async (line, message) => {
    const cwd = await mkdtemp(join(parent, 'run-'));
    // A key and a base URL, so that nothing but the command line can be refused.
    const env = { COMPANY_DATA_BASE_URL: 'http://127.0.0.1:9/v1', COMPANY_DATA_API_KEY: 'key' };
    const ran = await runChild(line.split(' '), { env, cwd });
    expect(ran.code, ran.stderr).toBe(2);
    expect(ran.stderr).toBe(`company-data: ${message}\n${POINTER}\n`);
    expect(ran.stderr.split('--help').length - 1).toBe(1);
    expect(ran.stderr).not.toMatch(/^\s+at /m);
    expect(ran.stdout).toBe('');
    expect(await readdir(cwd)).toEqual([]);
  });
});
