/**
 * Figure 9: what the sync's fall-back costs. `client.calls.sync()` with read-ahead reads one page at a time
 * from the first fall of `count` to its end ("Sync read-ahead under deletions" in docs/spec-gaps.md says
 * why). A full sync of the same list over HTTP, 20 ms of latency per list request, at concurrency 4 and at
 * concurrency 1, with the list standing still and while the mock's activity deletes one call a second
 * (Poisson, on its running clock).
 */
import type { ActivityOptions } from '@company-data/mock-server';
import { CompanyData } from '@company-data/sdk';
import { type FigureContext, ResultBuilder } from '../lib/figure.js';
import { type FigureResult, measurement } from '../lib/result.js';
import { type HostedServer, startHosted } from '../lib/servers.js';
import { median, rotate } from '../lib/stats.js';
import { FIGURES } from './index.js';

const SPEC = FIGURES.find((f) => f.id === 'sync-under-deletions') as (typeof FIGURES)[number];
const LATENCY_MS = 20;
const PAGE_SIZE = 100;
const LIST_PATH = '/v1/calls/';
/** Only deletions: one call a second, nothing arrives. */
const DELETING: ActivityOptions = {
  callsPerMinute: 0,
  recordingsPerHour: 0,
  deactivationsPerDay: 0,
  callDeletionsPerHour: 3600,
};

const VARIANTS = [
  { name: 'c4-still', concurrency: 4, deleting: false, label: 'concurrency 4, standing still' },
  { name: 'c4-deleting', concurrency: 4, deleting: true, label: 'concurrency 4, one call deleted a second' },
  { name: 'c1-still', concurrency: 1, deleting: false, label: 'concurrency 1, standing still' },
  { name: 'c1-deleting', concurrency: 1, deleting: true, label: 'concurrency 1, one call deleted a second' },
] as const;
type VariantName = (typeof VARIANTS)[number]['name'];

/** What one sync did. */
interface SyncResult {
  seconds: number;
  /** List requests the mock answered. */
  requests: number;
  /** Calls delivered as created. */
  delivered: number;
  /** Calls delivered more than once (must be 0). */
  twice: number;
  /** `count` before and after the run. */
  before: number;
  after: number;
  /** Pages of the list at the start. */
  pages: number;
  /** The first page read a second time (where one page at a time began), if any. */
  readAgainFrom?: number;
  /** Seconds into the run when the page before it was delivered. */
  secondsBeforeFallBack?: number;
}

/** Runs figure 9. */
export async function run(ctx: FigureContext): Promise<FigureResult> {
  const r = new ResultBuilder(SPEC);
  const total = ctx.quick ? 3_000 : 20_000;
  const rounds = ctx.quick ? 1 : 3;
  r.method(
    `A full \`client.calls.sync({ params: { page_size: ${PAGE_SIZE} } }, { concurrency })\` of ${total.toLocaleString('en-US')} calls ` +
      `(${total / PAGE_SIZE} pages) from the mock's HTTP listener in a child process, every list response delayed by ` +
      `${LATENCY_MS} ms (fault injection, as in figure 2), at concurrency 4 and 1, standing still and with the mock's ` +
      `activity ${JSON.stringify(DELETING)} switched on just before the run and off after it (Poisson deletions, ` +
      `one a second on average, among the calls existing then; nothing arrives). ${rounds} interleaved round(s) of ` +
      `the four variants, each starting from a different one. Requests are the list requests in the mock's journal; ` +
      `the fall-back shows there as the first page read a second time.`,
  );
  let server: HostedServer | undefined;
  let client: CompanyData | undefined;
  try {
    server = await startHosted({ kind: 'mock', mockOptions: { quota: false, sizes: { calls: total } } });
    const hosted = server;
    ctx.log(`mock listener with ${total} calls built in ${Math.round(hosted.buildMs)} ms`);
    await hosted.call('injectFault', { method: 'GET', path: LIST_PATH, delayMs: LATENCY_MS, times: 1e9 });
    const sdk = new CompanyData({ apiKey: hosted.keys.valid as string, baseURL: hosted.baseURL });
    client = sdk;
    const count = async () => (await sdk.calls.list({ page_size: 1 })).pagination.count;

    const syncOnce = async (concurrency: number, deleting: boolean): Promise<SyncResult> => {
      const before = await count();
      await hosted.call('clearJournal');
      if (deleting) await hosted.call('setActivity', DELETING);
      const seen = new Set<string>();
      let twice = 0;
      const delivered: { page: number; at: number }[] = [];
      const begin = performance.now();
      try {
        const run = sdk.calls.sync({ params: { page_size: PAGE_SIZE } }, { concurrency });
        for await (const batch of run.pages()) {
          for (const change of batch.changes) {
            if (change.type !== 'created') continue;
            if (seen.has(change.record.id)) twice++;
            seen.add(change.record.id);
          }
          delivered.push({ page: batch.page, at: performance.now() - begin });
        }
      } finally {
        if (deleting) await hosted.call('setActivity', false);
      }
      const seconds = (performance.now() - begin) / 1000;
      // A read-ahead request aborted at the fall-back reaches the mock's journal a moment later.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const read = await hosted.call<number[]>('pagesRead', LIST_PATH);
      const after = await count();
      const readAgainFrom = read.find((page, index) => read.indexOf(page) < index);
      const last = delivered.filter((d) => d.page === (readAgainFrom ?? 0) - 1).at(-1);
      return {
        seconds,
        requests: read.length,
        delivered: seen.size,
        twice,
        before,
        after,
        pages: Math.ceil(before / PAGE_SIZE),
        ...(readAgainFrom === undefined ? {} : { readAgainFrom }),
        ...(last === undefined ? {} : { secondsBeforeFallBack: last.at / 1000 }),
      };
    };

    const results: Record<VariantName, SyncResult[]> = {
      'c4-still': [],
      'c4-deleting': [],
      'c1-still': [],
      'c1-deleting': [],
    };
    for (let round = 0; round < rounds; round++) {
      for (const variant of rotate(VARIANTS, round)) {
        const result = await syncOnce(variant.concurrency, variant.deleting);
        results[variant.name].push(result);
        ctx.log(
          `${variant.label}: ${result.seconds.toFixed(2)} s, ${result.requests} requests, ` +
            `${result.before - result.after} deleted, read again from page ${result.readAgainFrom ?? '—'}`,
        );
      }
    }

    const wall = (name: VariantName) =>
      r.measure(
        measurement(
          VARIANTS.find((v) => v.name === name)?.label ?? name,
          's',
          results[name].map((x) => x.seconds),
          {
            requests: median(results[name].map((x) => x.requests)),
            'calls deleted during the run': median(results[name].map((x) => x.before - x.after)),
          },
        ),
      ).median;
    const c4Still = wall('c4-still');
    const c4Deleting = wall('c4-deleting');
    const c1Still = wall('c1-still');
    wall('c1-deleting');
    r.note(
      `Concurrency 4 while calls are deleted took ${(c4Deleting / c4Still).toFixed(2)}× its time standing still, ` +
        `and ${(c4Deleting / c1Still).toFixed(2)}× the time of concurrency 1 standing still.`,
    );
    for (const result of results['c4-deleting']) {
      const { readAgainFrom, secondsBeforeFallBack, seconds, pages } = result;
      if (readAgainFrom === undefined || secondsBeforeFallBack === undefined) {
        r.note(
          `Concurrency 4 while deleting: no page read twice in ${seconds.toFixed(2)} s (${result.before - result.after} deleted): no fall of count met before the end, read-ahead throughout.`,
        );
        continue;
      }
      const ahead = (readAgainFrom - 1) / secondsBeforeFallBack;
      const oneByOne = (pages - readAgainFrom + 1) / (seconds - secondsBeforeFallBack);
      r.note(
        `Concurrency 4 while deleting: read ahead for pages 1–${readAgainFrom - 1} (${secondsBeforeFallBack.toFixed(2)} s, ` +
          `${ahead.toFixed(0)} pages a second), then one page at a time from page ${readAgainFrom} of ${pages} ` +
          `(${oneByOne.toFixed(0)} pages a second); ${result.requests} requests for ${pages} pages.`,
      );
    }

    // Every run: no call twice, and at least every call that still exists at its end (a call deleted during
    // the run may or may not come). Nothing arrives here, so read-ahead owes exactly-once too.
    const all = Object.values(results).flat();
    const exact = all.every((x) => x.twice === 0 && x.delivered >= x.after && x.delivered <= x.before);
    r.check({
      id: 'sync-deletions.exactly-once',
      label: 'every run: no call twice, none that still exists missing (by count)',
      value: exact ? 1 : 0,
      unit: 'bool',
      target: 'exactly once',
      pass: exact,
      ...(exact
        ? {}
        : {
            note: all
              .map((x) => `${x.delivered} delivered, ${x.twice} twice, count ${x.before} → ${x.after}`)
              .join('; '),
          }),
    });
    return r.build();
  } finally {
    await client?.close();
    await server?.close();
  }
}
