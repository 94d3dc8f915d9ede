// `company-data check` as users meet it: the mock server's command in a child process (over a real socket,
// its clock frozen), copies made by `company-data export` in child processes, into a PostgreSQL of the test
// file's own and into NDJSON files; drift planted in the copy by hand and in the mock through its admin API;
// the checks run in child processes, and in process where coverage should see them (the repairs, the
// messages).
import { appendFile, mkdtemp, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type PostgresServer, postgresOrSkip } from '../../../scripts/lib/postgres-server.mjs';
import { adminRequest, type CliProcess, startCli } from '../../mock-server/test/support/cli-process.js';
import { PostgresCopy } from '../src/copy/postgres-copy.js';
import { postgresForTests } from './support/copy-destinations.js';
import { envFor, runChild, runInProcess } from './support/run.js';

/** Whether PostgreSQL is here (under CI it must be: postgresOrSkip throws). */
const available = postgresOrSkip() !== undefined;
/** The mock's frozen clock: its records were created before it. */
const NOW = Date.parse('2026-06-01T12:00:00Z');
const DAY = 86_400_000;
/** A row added to a copy by hand: an id the API never gave (the largest uuid, so the last in id order). */
const EXTRA = 'ffffffff-ffff-4fff-8fff-ffffffffffff';
/** A report's kinds that found nothing. */
const NONE = { count: 0, ids: [] };

interface Call {
  id: string;
  created_at: string;
  is_excused: boolean;
  [field: string]: unknown;
}

let mock: CliProcess;
let postgres: PostgresServer | undefined;
let db: pg.Client;
let dir: string;
let schemas = 0;

beforeAll(async () => {
  postgres = await postgresForTests();
  mock = await startCli(['--freeze', '--seed', '11']);
  if (postgres) {
    db = new pg.Client({ connectionString: postgres.url });
    await db.connect();
  }
}, 60_000);
afterAll(async () => {
  await db?.end();
  await mock?.stop();
  await postgres?.stop();
});
beforeEach(async ({ onTestFinished }) => {
  await admin('POST', 'reset');
  dir = await mkdtemp(join(tmpdir(), 'company-data-check-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
});

const admin = (method: string, path: string, body?: unknown) => adminRequest(mock, method, path, body);
const env = () => envFor(mock.summary);
/** `company-data <argv>` in a child process, as a user runs it. */
const child = (argv: readonly string[]) => runChild(argv, { env: env() });
/** `company-data <argv>` in this process, in the test's folder. */
const inProcess = (
  argv: readonly string[],
  options: { signal?: AbortSignal; onStderr?: (text: string) => void } = {},
) => runInProcess(argv, { env: env(), cwd: dir, ...options });

/** Every call the mock holds, newest first, read with plain fetch. */
async function heldCalls(): Promise<Call[]> {
  const calls: Call[] = [];
  for (let page = 1; ; page++) {
    const response = await fetch(`${mock.summary.baseURL}/calls/?page_size=100&page=${page}`, {
      headers: { authorization: `Bearer ${mock.summary.keys.valid}` },
    });
    const body = (await response.json()) as { data: Call[]; pagination: { total_pages: number } };
    calls.push(...body.data);
    if (page >= body.pagination.total_pages) return calls;
  }
}

/** The calls of a file copy, in its order. */
async function fileCalls(file: string): Promise<Call[]> {
  return (await readFile(file, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Call);
}

/** The newest call created at least `days` days before the mock's now. */
function daysOld(calls: readonly Call[], days: number): Call {
  const call = calls.find((candidate) => Date.parse(candidate.created_at) <= NOW - days * DAY);
  if (call === undefined) throw new Error(`no call ${days} days old`);
  return call;
}

describe('a copy in PostgreSQL', () => {
  it.skipIf(!available)(
    'reports the rows deleted, edited and added by hand and a call deleted upstream 30 days after it was created; --repair stores them, and the table equals the list row for row',
    async () => {
      const schema = `check_${++schemas}`;
      const flags = ['--to', postgres?.url ?? '', '--schema', schema];
      const exported = await child(['export', 'calls', ...flags]);
      expect(exported.code, exported.stderr).toBe(0);
      const progress = `select checkpoint, records, complete, updated_at from ${schema}.checkpoints`;
      const before = (await db.query(progress)).rows[0];
      expect(before.records).toBe('240');

      const copied = (await db.query(`select record from ${schema}.calls order by created_at desc`)).rows.map(
        (row: { record: Call }) => row.record,
      );
      const upstream = daysOld(copied, 30);
      const [removed, edited] = copied.filter((call) => call.id !== upstream.id).slice(10) as [Call, Call];
      await db.query(`delete from ${schema}.calls where id = $1`, [removed.id]);
      await db.query(
        `update ${schema}.calls set record = jsonb_set(record, '{summary}', '"Edited by hand"') where id = $1`,
        [edited.id],
      );
      await db.query(
        `insert into ${schema}.calls (id, created_at, record)
         select $1, created_at, jsonb_set(record, '{id}', to_jsonb($1::text)) from ${schema}.calls where id = $2`,
        [EXTRA, edited.id],
      );
      expect(Date.parse(upstream.created_at)).toBeLessThanOrEqual(NOW - 30 * DAY);
      await admin('DELETE', `records/calls/${upstream.id}`);

      const checked = await child(['check', 'calls', ...flags, '--json']);
      expect(checked.code, checked.stderr).toBe(1);
      expect(JSON.parse(checked.stdout)).toEqual({
        command: 'check',
        list: 'calls',
        destination: `${schema}.calls`,
        outcome: 'done',
        equal: false,
        repaired: false,
        listed: 239,
        copied: 240,
        missing: { count: 1, ids: [removed.id] },
        gone: { count: 2, ids: [upstream.id, EXTRA] },
        stale: { count: 1, ids: [edited.id] },
        duplicated: NONE,
        newer: NONE,
        skipped: NONE,
      });
      // A check only reads.
      expect((await db.query(`select count(*)::int as rows from ${schema}.calls`)).rows[0].rows).toBe(240);

      const repaired = await inProcess(['check', 'calls', ...flags, '--repair']);
      expect(repaired.code, repaired.stderr).toBe(0);
      expect(repaired.stdout).toBe(
        [
          `Checked ${schema}.calls against the list: 239 calls read, 240 in the copy.`,
          `  missing          1  in the list, not in the copy: ${removed.id}`,
          `  gone             2  in the copy, deleted from the list: ${upstream.id}, ${EXTRA}`,
          `  stale            1  in both, but the copy's record differs: ${edited.id}`,
          'Repaired: 2 missing or stale records stored, 2 gone deleted; the copy now equals the list.',
          '',
        ].join('\n'),
      );
      expect(repaired.stderr).toContain(
        'check: looking up 2 calls of the copy that the list did not show, by id\n',
      );

      const again = await child(['check', 'calls', ...flags]);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toBe(
        `Checked ${schema}.calls against the list: 239 calls read, 239 in the copy.\nThe copy equals the list.\n`,
      );
      const rows = (await db.query(`select id, record, is_excused, source from ${schema}.calls`)).rows;
      const held = await heldCalls();
      expect(held).toHaveLength(239);
      expect(new Map(rows.map((row: { id: string; record: Call }) => [row.id, row.record]))).toEqual(
        new Map(held.map((call) => [call.id, call])),
      );
      const restored = rows.find((row: { id: string }) => row.id === removed.id);
      expect(restored).toMatchObject({ is_excused: removed.is_excused, source: removed.source });
      // The checkpoint row as the export left it, but for its count of records.
      expect((await db.query(progress)).rows[0]).toEqual({ ...before, records: '239' });
    },
    60_000,
  );

  it.skipIf(!available)(
    '--repair exits 75 naming the run that holds the copy; a check alone takes no lock and runs beside it',
    async () => {
      const schema = `check_${++schemas}`;
      const flags = ['--to', postgres?.url ?? '', '--schema', schema];
      expect((await child(['export', 'calls', ...flags])).code).toBe(0);
      const held = await PostgresCopy.open({
        connectionString: postgres?.url,
        list: 'calls',
        schema,
        lock: { command: 'the first run' },
      });
      try {
        const refused = await child(['check', 'calls', ...flags, '--repair']);
        expect(refused.code).toBe(75);
        expect(refused.stdout).toBe('');
        expect(refused.stderr).toMatch(
          new RegExp(
            `^company-data: ${schema}\\.calls is being copied by another run: pid ${process.pid} on \\S+ \\(the first run\\), since \\S+\\. Run again once it is done, or pass --wait <duration> to wait for it\\. If that run is gone .*select pg_terminate_backend\\(\\d+\\);\\n$`,
          ),
        );
        const beside = await inProcess(['check', 'calls', ...flags]);
        expect(beside.code, beside.stderr).toBe(0);
        expect(beside.stdout).toMatch(/The copy equals the list\.\n$/);
      } finally {
        await held.close();
      }
      // Let go, the repair runs (and names itself to whoever finds the copy taken meanwhile).
      const waited = await inProcess(['check', 'calls', ...flags, '--repair', '--wait', '1m']);
      expect(waited.code, waited.stderr).toBe(0);
    },
    60_000,
  );

  it.skipIf(!available)(
    'refuses a copy with no export, and one whose export did not complete, with the command that makes it checkable',
    async () => {
      const schema = `check_${++schemas}`;
      // The password is never shown (the test's server trusts every local connection, whatever it is given).
      const url = new URL(postgres?.url ?? '');
      url.password = 'secret';
      const flags = ['--to', url.toString(), '--schema', schema];
      // In single quotes: a shell would expand the stars.
      const shown = `'postgres://postgres:****@${url.host}/postgres'`;
      const none = await inProcess(['check', 'calls', ...flags]);
      expect(none.code).toBe(2);
      expect(none.stderr).toBe(
        `company-data: ${schema}.calls holds no export of calls: run company-data export calls --to ${shown} --schema ${schema} first, then check it.\n`,
      );
      const controller = new AbortController();
      const interrupted = await inProcess(['export', 'calls', ...flags], {
        signal: controller.signal,
        onStderr: (text) => {
          if (/calls [1-9]\d*\/240/.test(text)) controller.abort();
        },
      });
      expect(interrupted.code, interrupted.stderr).toBe(130);
      const incomplete = await inProcess(['check', 'calls', ...flags, '--repair']);
      expect(incomplete.code).toBe(2);
      expect(incomplete.stderr).toBe(
        `company-data: ${schema}.calls holds an export of calls that did not complete (100 so far): finish the export first: run company-data export calls --to ${shown} --schema ${schema} (it resumes where it stopped), then check it.\n`,
      );
    },
    60_000,
  );
});

describe('a copy in an NDJSON file', () => {
  it('reports the calls missing, gone and stale; refuses --repair with the commands that rebuild it, which make the copy equal the list', async () => {
    const file = join(dir, 'calls.ndjson');
    const exported = await child(['export', 'calls', '--out', file]);
    expect(exported.code, exported.stderr).toBe(0);
    const copied = await fileCalls(file);
    const upstream = daysOld(copied, 30);
    const excused = copied.find((call) => !call.is_excused && call.id !== upstream.id) as Call;
    await admin('DELETE', `records/calls/${upstream.id}`);
    await admin('PATCH', `records/calls/${excused.id}`, { is_excused: true });
    // Created upstream with a creation time older than the export's newest call: no sync ever takes it.
    const { data: late } = (await admin('POST', 'records/calls', {
      created_at: new Date(NOW - 40 * DAY).toISOString(),
    })) as { data: Call };

    const checked = await child(['check', 'calls', '--out', file, '--json']);
    expect(checked.code, checked.stderr).toBe(1);
    expect(JSON.parse(checked.stdout)).toEqual({
      command: 'check',
      list: 'calls',
      destination: file,
      outcome: 'done',
      equal: false,
      repaired: false,
      listed: 240,
      copied: 240,
      missing: { count: 1, ids: [late.id] },
      gone: { count: 1, ids: [upstream.id] },
      stale: { count: 1, ids: [excused.id] },
      duplicated: NONE,
      newer: NONE,
      skipped: NONE,
    });
    const rebuild = [
      'company-data export calls --out calls.ndjson.new',
      'mv calls.ndjson.new calls.ndjson && mv calls.ndjson.new.checkpoint calls.ndjson.checkpoint',
    ];
    const told = await inProcess(['check', 'calls', '--out', 'calls.ndjson']);
    expect(told.code).toBe(1);
    expect(told.stdout).toBe(
      [
        'Checked calls.ndjson against the list: 240 calls read, 240 in the copy.',
        `  missing          1  in the list, not in the copy: ${late.id}`,
        `  gone             1  in the copy, deleted from the list: ${upstream.id}`,
        `  stale            1  in both, but the copy's record differs: ${excused.id}`,
        'The copy differs from the list. A file copy is append-only: to rebuild it, export calls into a new file, then put it and its checkpoint in place of the old ones (while no sync of it runs):',
        ...rebuild.map((command) => `  ${command}`),
        '',
      ].join('\n'),
    );
    const refused = await child(['check', 'calls', '--out', 'calls.ndjson', '--repair']);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(
      [
        'company-data: --repair mends a copy in PostgreSQL only: a file copy is append-only. To rebuild calls.ndjson, export calls into a new file, then put it and its checkpoint in place of the old ones (while no sync of it runs):',
        ...rebuild.map((command) => `  ${command}`),
        'Run company-data --help for every option.',
        '',
      ].join('\n'),
    );

    // The rebuild, as the message says.
    expect((await inProcess(['export', 'calls', '--out', 'calls.ndjson.new'])).code).toBe(0);
    const { execFileSync } = await import('node:child_process');
    execFileSync('sh', ['-c', rebuild[1] as string], { cwd: dir });
    const rebuilt = await child(['check', 'calls', '--out', file, '--json']);
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(JSON.parse(rebuilt.stdout)).toMatchObject({ equal: true, listed: 240, copied: 240 });
  }, 60_000);

  it('counts calls created after the export as newer, not missing: the copy still equals the list', async () => {
    expect((await inProcess(['export', 'calls', '--out', 'calls.ndjson'])).code).toBe(0);
    const { data: created } = (await admin('POST', 'records/calls', {
      summary: 'Arrived after the export',
    })) as {
      data: Call;
    };
    expect(created.created_at).toBe('2026-06-01T12:00:00Z');
    const checked = await inProcess(['check', 'calls', '--out', 'calls.ndjson', '--json']);
    expect(checked.code, checked.stderr).toBe(0);
    expect(JSON.parse(checked.stdout)).toMatchObject({
      equal: true,
      listed: 241,
      copied: 240,
      missing: NONE,
      newer: { count: 1, ids: [created.id] },
    });
    const text = await inProcess(['check', 'calls', '--out', 'calls.ndjson']);
    expect(text.stdout).toBe(
      [
        'Checked calls.ndjson against the list: 241 calls read, 240 in the copy.',
        `  newer            1  created after the copy's last sync: the next sync takes them: ${created.id}`,
        'The copy equals the list.',
        '',
      ].join('\n'),
    );
    // The next sync takes it.
    expect((await inProcess(['sync', 'calls', '--out', 'calls.ndjson'])).code).toBe(0);
    const synced = await inProcess(['check', 'calls', '--out', 'calls.ndjson', '--json']);
    expect(JSON.parse(synced.stdout)).toMatchObject({ equal: true, listed: 241, copied: 241, newer: NONE });
  });

  it('counts an id on a second line as duplicated', async () => {
    const file = join(dir, 'calls.ndjson');
    expect((await inProcess(['export', 'calls', '--out', 'calls.ndjson'])).code).toBe(0);
    const [first] = (await readFile(file, 'utf8')).split('\n') as [string];
    await appendFile(file, `${first}\n`);
    // The progress says so too, as if a run had written it.
    const progress = JSON.parse(await readFile(`${file}.checkpoint`, 'utf8'));
    await writeFile(
      `${file}.checkpoint`,
      JSON.stringify({ ...progress, bytes: (await stat(file)).size, records: progress.records + 1 }),
    );
    const checked = await inProcess(['check', 'calls', '--out', 'calls.ndjson', '--json']);
    expect(checked.code).toBe(1);
    expect(JSON.parse(checked.stdout)).toMatchObject({
      equal: false,
      copied: 241,
      duplicated: { count: 1, ids: [(JSON.parse(first) as Call).id] },
      missing: NONE,
      gone: NONE,
      stale: NONE,
    });
  });

  it('refuses a file with no export, one whose export did not complete, and one shorter than its progress says', async () => {
    const none = await inProcess(['check', 'calls', '--out', 'calls.ndjson']);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe(
      'company-data: calls.ndjson holds no export of calls: run company-data export calls --out calls.ndjson first, then check it.\n',
    );
    const controller = new AbortController();
    const interrupted = await inProcess(['export', 'calls', '--out', 'my calls.ndjson'], {
      signal: controller.signal,
      onStderr: (text) => {
        if (/calls [1-9]\d*\/240/.test(text)) controller.abort();
      },
    });
    expect(interrupted.code).toBe(130);
    const incomplete = await inProcess(['check', 'calls', '--out', 'my calls.ndjson']);
    expect(incomplete.code).toBe(2);
    expect(incomplete.stderr).toBe(
      "company-data: my calls.ndjson holds an export of calls that did not complete (100 so far): finish the export first: run company-data export calls --out 'my calls.ndjson' (it resumes where it stopped), then check it.\n",
    );
    expect((await inProcess(['export', 'calls', '--out', 'my calls.ndjson'])).code).toBe(0);
    await truncate(join(dir, 'my calls.ndjson'), 1000);
    const changed = await inProcess(['check', 'calls', '--out', 'my calls.ndjson']);
    expect(changed.code).toBe(1);
    expect(changed.stderr).toMatch(
      /^company-data: my calls\.ndjson holds 1000 bytes, but .*my calls\.ndjson\.checkpoint says \d+ were written: something else changed the file, so it cannot be checked\. Export calls into a new file instead\.\n$/,
    );
  });

  it('stops after the page in hand on an interrupt and exits 130', async () => {
    expect((await inProcess(['export', 'calls', '--out', 'calls.ndjson'])).code).toBe(0);
    const controller = new AbortController();
    const interrupted = await inProcess(['check', 'calls', '--out', 'calls.ndjson', '--concurrency', '1'], {
      signal: controller.signal,
      onStderr: (text) => {
        if (/calls 100\/240/.test(text)) controller.abort();
      },
    });
    expect(interrupted.code, interrupted.stderr).toBe(130);
    expect(interrupted.stdout).toBe(
      'Checked calls.ndjson against the list: 100 calls read, 240 in the copy.\nInterrupted: the check is incomplete. Run the same command again.\n',
    );
  });
});

describe('company-data check: usage', () => {
  it('refuses bad arguments with exit 2 and the fix, before any request', async () => {
    const { data: before } = (await admin('GET', 'journal')) as { data: unknown[] };
    const cases: [string[], string][] = [
      [['check'], 'check needs the list to check (calls, users, teams, recordings)'],
      [['check', 'leads', '--out', 'x'], 'Unknown list "leads": use one of calls, users, teams, recordings.'],
      [['check', 'calls', 'users', '--out', 'x'], 'check checks one list; unexpected "users".'],
      [
        ['check', 'calls'],
        'check needs one destination: --out <file> (NDJSON) or --to postgres://user@host/database.',
      ],
      [
        ['check', 'calls', '--out', 'x', '--schema', 's'],
        '--schema goes with --to postgres://…: a file has no schema.',
      ],
      [['check', 'calls', '--out', 'x', '--repair'], '--repair mends a copy in PostgreSQL only'],
      [
        ['check', 'calls', '--to', 'postgres://h/d', '--wait', '1m'],
        '--wait goes with --repair: a check alone takes no lock, so it never waits.',
      ],
      [
        ['check', 'calls', '--out', 'x', '--concurrency', '17'],
        '--concurrency expects a whole number from 1 to 16; got 17.',
      ],
      [
        ['check', 'calls', '--out', 'x', '--look-back', '1h'],
        '--look-back belongs to sync (company-data sync calls … --look-back 1h), not check.',
      ],
    ];
    for (const [argv, message] of cases) {
      const ran = await inProcess(argv);
      expect(ran.code, argv.join(' ')).toBe(2);
      expect(ran.stderr, argv.join(' ')).toContain(message);
    }
    const { data: after } = (await admin('GET', 'journal')) as { data: unknown[] };
    expect(after.length).toBe(before.length);
  });

  it('is in the help, with its options and exit codes', async () => {
    const help = await inProcess(['check', '--help']);
    expect(help.stdout).toContain(
      '  check <list>             compare a copy that export or sync made with the whole list: the\n',
    );
    expect(help.stdout).toContain('  --concurrency <n>        requests in flight, 1-16 (default 4)\n');
    expect(help.stdout).toContain('check: the copy equals the list, or was repaired');
  });
});
