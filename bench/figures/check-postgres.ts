/**
 * Figure 10b: what `company-data check` costs against the export it checks. A full export of the calls into
 * PostgreSQL with `copyList` of `@company-data/cli/copy` (the machinery of `company-data export`), then
 * `checkCopy` of the same module (the machinery of `company-data check`) reading the whole list again and
 * comparing each page with the table in one statement, in the same run, the same client and read-ahead. The
 * check must find the copy equal to the list (every call read, none missing, gone or stale).
 */
import { checkCopy, copyList, PostgresCopy } from '@company-data/cli/copy';
import { CompanyData } from '@company-data/sdk';
import { startPostgres } from '../../scripts/lib/postgres-server.mjs';
import { type FigureContext, ResultBuilder } from '../lib/figure.js';
import { atMost, type FigureResult, measurement } from '../lib/result.js';
import { type HostedServer, startHosted } from '../lib/servers.js';
import { median } from '../lib/stats.js';
import { FIGURES } from './index.js';

const SPEC = FIGURES.find((f) => f.id === 'check-postgres') as (typeof FIGURES)[number];
const CONCURRENCY = 4;
/** The target of the issue: the check takes at most 1.3 times the export's time. */
const TARGET_RATIO = 1.3;

/** Runs figure 10b. */
export async function run(ctx: FigureContext): Promise<FigureResult> {
  const r = new ResultBuilder(SPEC);
  const total = ctx.quick ? 20_000 : 1_000_000;
  const rounds = ctx.quick ? 1 : 2;
  r.method(
    `${rounds} round(s), each a full export of ${total.toLocaleString('en-US')} calls (pages of 100, read ahead with ` +
      `concurrency ${CONCURRENCY}) from the mock's HTTP listener in a child process into a new schema of a ` +
      'PostgreSQL 15 started for the figure on 127.0.0.1 with its default durability, with `copyList` and ' +
      '`PostgresCopy` of `@company-data/cli/copy` (what `company-data export calls --to` runs: each page and its ' +
      'checkpoint in one transaction), then a check of that copy with `checkCopy` of the same module (what ' +
      '`company-data check calls --to` runs: the whole list read again with the same read-ahead, each page ' +
      'compared with the table in one statement that also notes its ids in a temporary table, in one read-only ' +
      'snapshot; then the rows no page showed, none here). The heap is sampled every 100 pages of the check.',
  );
  let server: HostedServer | undefined;
  let client: CompanyData | undefined;
  const postgres = await startPostgres({ durable: true });
  try {
    server = await startHosted({ kind: 'mock', mockOptions: { quota: false, sizes: { calls: total } } });
    ctx.log(`mock listener with ${total} calls built in ${Math.round(server.buildMs)} ms`);
    const sdk = new CompanyData({ apiKey: server.keys.valid as string, baseURL: server.baseURL });
    client = sdk;
    const seconds = { export: [] as number[], check: [] as number[] };
    let heapPeak = 0;
    for (let round = 1; round <= rounds; round++) {
      const schema = `bench_check_${round}`;
      const destination = await PostgresCopy.open({ connectionString: postgres.url, list: 'calls', schema });
      let begin = performance.now();
      try {
        const result = await copyList({
          client: sdk,
          list: 'calls',
          destination,
          mode: 'export',
          concurrency: CONCURRENCY,
        });
        if (result.outcome !== 'done' || result.records !== total)
          throw new Error(`export: ${result.outcome} with ${result.records} of ${total} calls`);
      } finally {
        await destination.close();
      }
      seconds.export.push((performance.now() - begin) / 1000);
      ctx.log(`round ${round}: export ${seconds.export.at(-1)?.toFixed(1)} s`);
      begin = performance.now();
      const report = await checkCopy({
        client: sdk,
        list: 'calls',
        copy: { connectionString: postgres.url, schema },
        concurrency: CONCURRENCY,
        onPage: (listed) => {
          if (listed % 10_000 === 0) heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
        },
      });
      seconds.check.push((performance.now() - begin) / 1000);
      ctx.log(`round ${round}: check ${seconds.check.at(-1)?.toFixed(1)} s`);
      if (!report.equal || report.listed !== total || report.copied !== total || report.newer.count > 0)
        throw new Error(`check: ${JSON.stringify(report)}`);
    }
    const exported = r.measure(
      measurement('export into PostgreSQL', 's', seconds.export, {
        'calls a second': Math.round(total / median(seconds.export)),
      }),
    ).median;
    const checked = r.measure(
      measurement('check of that copy', 's', seconds.check, {
        'calls a second': Math.round(total / median(seconds.check)),
        'heap at most (MB)': Math.round(heapPeak / 1e6),
      }),
    ).median;
    r.check(
      atMost('check-postgres.ratio', 'check time / export time (medians)', checked / exported, TARGET_RATIO),
    );
    return r.build();
  } finally {
    await client?.close();
    await server?.close();
    await postgres.stop();
  }
}
