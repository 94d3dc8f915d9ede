/**
 * Figure 10: what a copy into PostgreSQL costs against the same copy into an NDJSON file. A full export of
 * the calls with `copyList` of `@company-data/cli/copy` (the machinery of `company-data export`), the same
 * client and read-ahead, into `NdjsonCopy` (each page appended and flushed to disk, then its progress file
 * replaced atomically) and into `PostgresCopy` (each page upserted with its checkpoint in one transaction),
 * alternately. The PostgreSQL is a server of the figure's own, with its defaults for durability (`fsync` and
 * `synchronous_commit` on): a commit waits for its WAL on disk, as the file's page waits for its flush.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CopyDestination, copyList, NdjsonCopy, PostgresCopy } from '@company-data/cli/copy';
import { CompanyData } from '@company-data/sdk';
import pg from 'pg';
import { startPostgres } from '../../scripts/lib/postgres-server.mjs';
import { type FigureContext, ResultBuilder } from '../lib/figure.js';
import { atMost, type FigureResult, measurement } from '../lib/result.js';
import { type HostedServer, startHosted } from '../lib/servers.js';
import { median } from '../lib/stats.js';
import { FIGURES } from './index.js';

const SPEC = FIGURES.find((f) => f.id === 'copy-to-postgres') as (typeof FIGURES)[number];
const CONCURRENCY = 4;
/** The target of the issue: the database copy takes at most twice the file's time. */
const TARGET_RATIO = 2;

/** Runs figure 10. */
export async function run(ctx: FigureContext): Promise<FigureResult> {
  const r = new ResultBuilder(SPEC);
  const total = ctx.quick ? 20_000 : 1_000_000;
  const rounds = ctx.quick ? 1 : 2;
  r.method(
    `A full export of ${total.toLocaleString('en-US')} calls (pages of 100, read ahead with concurrency ${CONCURRENCY}) ` +
      `from the mock's HTTP listener in a child process, with \`copyList\` of \`@company-data/cli/copy\` (what ` +
      '`company-data export calls` runs) into `NdjsonCopy` (a file on the local disk: each page appended and ' +
      'fdatasync-ed, then its progress file written, fsync-ed and renamed) and into `PostgresCopy` (PostgreSQL 15 ' +
      'started for the figure on 127.0.0.1 with its default durability: each page and its checkpoint in one ' +
      `transaction). ${rounds} round(s), the file first in one and the database first in the other; each export ` +
      'into a new file or a new schema.',
  );
  let server: HostedServer | undefined;
  let client: CompanyData | undefined;
  const postgres = await startPostgres({ durable: true });
  const dir = await mkdtemp(join(tmpdir(), 'company-data-bench-copy-'));
  try {
    server = await startHosted({ kind: 'mock', mockOptions: { quota: false, sizes: { calls: total } } });
    ctx.log(`mock listener with ${total} calls built in ${Math.round(server.buildMs)} ms`);
    const sdk = new CompanyData({ apiKey: server.keys.valid as string, baseURL: server.baseURL });
    client = sdk;

    let exports = 0;
    const exportInto = async (kind: 'file' | 'postgres') => {
      exports++;
      const destination: CopyDestination =
        kind === 'file'
          ? await NdjsonCopy.open(join(dir, `calls-${exports}.ndjson`))
          : await PostgresCopy.open({
              connectionString: postgres.url,
              list: 'calls',
              schema: `bench_${exports}`,
            });
      const begin = performance.now();
      try {
        const result = await copyList({
          client: sdk,
          list: 'calls',
          destination,
          mode: 'export',
          concurrency: CONCURRENCY,
        });
        if (result.outcome !== 'done' || result.records !== total)
          throw new Error(`${kind}: ${result.outcome} with ${result.records} of ${total} calls`);
      } finally {
        await destination.close();
      }
      return (performance.now() - begin) / 1000;
    };

    const seconds: Record<'file' | 'postgres', number[]> = { file: [], postgres: [] };
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? (['file', 'postgres'] as const) : (['postgres', 'file'] as const);
      for (const kind of order) {
        const took = await exportInto(kind);
        seconds[kind].push(took);
        ctx.log(`${kind}: ${took.toFixed(1)} s`);
      }
    }

    const bytes = (await stat(join(dir, 'calls-1.ndjson'))).size;
    const db = new pg.Client({ connectionString: postgres.url });
    await db.connect();
    const size = await db.query("select pg_total_relation_size('bench_2.calls') as bytes");
    await db.end();
    const file = r.measure(
      measurement('into an NDJSON file', 's', seconds.file, {
        'calls a second': Math.round(total / median(seconds.file)),
        'file size (MB)': Math.round(bytes / 1e6),
      }),
    ).median;
    const database = r.measure(
      measurement('into PostgreSQL', 's', seconds.postgres, {
        'calls a second': Math.round(total / median(seconds.postgres)),
        'table and index size (MB)': Math.round(Number(size.rows[0].bytes) / 1e6),
      }),
    ).median;
    r.check(
      atMost(
        'copy-to-postgres.ratio',
        'PostgreSQL time / NDJSON time (medians)',
        database / file,
        TARGET_RATIO,
      ),
    );
    return r.build();
  } finally {
    await client?.close();
    await server?.close();
    await postgres.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
