/**
 * Figure 2: a full export of 100,000 calls (page_size 100) over HTTP from the mock listener, with 20 ms of
 * injected latency on every list request: sequential pagination versus ordered prefetch at concurrency 4.
 * Both must yield the same ids in the same order (compared by hash).
 */
import { createHash } from 'node:crypto';
import { CompanyData } from '@company-data/sdk';
import { type FigureContext, ResultBuilder } from '../lib/figure.js';
import { atLeast, type FigureResult, measurement } from '../lib/result.js';
import { type HostedServer, startHosted } from '../lib/servers.js';
import { FIGURES } from './index.js';

const SPEC = FIGURES.find((f) => f.id === 'full-export') as (typeof FIGURES)[number];
const LATENCY_MS = 20;
const PAGE_SIZE = 100;

/** What one export produced. */
interface Export {
  seconds: number;
  count: number;
  hash: string;
}

/** Runs figure 2. */
export async function run(ctx: FigureContext): Promise<FigureResult> {
  const r = new ResultBuilder(SPEC);
  const total = ctx.quick ? 20_000 : 100_000;
  const rounds = ctx.quick ? 1 : 3;
  const maxSeconds = 40;
  r.method(
    `The SDK iterates every call (${total.toLocaleString('en-US')}, page_size ${PAGE_SIZE}, so ${total / PAGE_SIZE} ` +
      `requests) with \`for await\` from the mock's HTTP listener in a child process, which delays every ` +
      `list response by ${LATENCY_MS} ms (fault injection). Sequential (concurrency 1) and ordered prefetch ` +
      `(concurrency 4) alternate for ${rounds} round(s); each export is capped at ${maxSeconds} s. Ids are hashed ` +
      `(SHA-256, in order) to prove both ways yield the same items in the same order.`,
  );
  let server: HostedServer | undefined;
  try {
    server = await startHosted({ kind: 'mock', mockOptions: { quota: false, sizes: { calls: total } } });
    ctx.log(`mock listener with ${total} calls built in ${Math.round(server.buildMs)} ms`);
    await server.call('injectFault', { method: 'GET', path: '/v1/calls/', delayMs: LATENCY_MS, times: 1e9 });
    const client = new CompanyData({ apiKey: server.keys.valid as string, baseURL: server.baseURL });

    const exportAll = async (concurrency: number): Promise<Export> => {
      const hash = createHash('sha256');
      const begin = performance.now();
      const stopAt = begin + maxSeconds * 1000;
      let count = 0;
      for await (const call of client.calls.list({ page_size: PAGE_SIZE }, { concurrency })) {
        hash.update(call.id);
        hash.update('\n');
        count++;
        if (count > total || ((count & 1023) === 0 && performance.now() > stopAt)) break;
      }
      return { seconds: (performance.now() - begin) / 1000, count, hash: hash.digest('hex') };
    };

    const sequential: Export[] = [];
    const prefetch: Export[] = [];
    for (let round = 0; round < rounds; round++) {
      // Alternate which goes first, so neither always runs on a freshly warmed (or tired) process.
      const order = round % 2 === 0 ? [1, 4] : [4, 1];
      for (const concurrency of order) {
        const result = await exportAll(concurrency);
        (concurrency === 1 ? sequential : prefetch).push(result);
        ctx.log(`concurrency ${concurrency}: ${result.count} calls in ${result.seconds.toFixed(2)} s`);
      }
    }
    const seq = r.measure(
      measurement(
        'sequential (concurrency 1)',
        's',
        sequential.map((x) => x.seconds),
      ),
    );
    const pre = r.measure(
      measurement(
        'ordered prefetch (concurrency 4)',
        's',
        prefetch.map((x) => x.seconds),
      ),
    );
    r.measure(
      measurement(
        'ordered prefetch throughput',
        'calls/s',
        prefetch.map((x) => x.count / x.seconds),
      ),
    );
    const speedup = r.check(
      atLeast('export.speedup', 'sequential time / prefetch time', seq.median / pre.median, 3),
    );

    const all = [...sequential, ...prefetch];
    const hashes = new Set(all.map((x) => x.hash));
    const counts = new Set(all.map((x) => x.count));
    const identical = hashes.size === 1 && counts.size === 1 && all[0]?.count === total;
    r.check({
      id: 'export.same-order',
      label: 'same ids in the same order (every run)',
      value: identical ? 1 : 0,
      unit: 'bool',
      target: 'identical',
      pass: identical,
      ...(identical
        ? {}
        : { note: `counts ${[...counts].join('/')}, ${hashes.size} distinct hashes — the runs disagree.` }),
    });
    r.note(
      `Every run yielded ${[...counts].join('/')} calls; ids hash ${[...hashes].map((h) => h.slice(0, 16)).join(' / ')}.`,
    );
    const ideal = (total / PAGE_SIZE) * LATENCY_MS;
    r.note(
      `Floor from latency alone: ${(ideal / 1000).toFixed(1)} s sequential, ${(ideal / 4000).toFixed(1)} s at concurrency 4 ` +
        `(so the largest possible speedup is just under 4×).`,
    );
    if (speedup.pass === false) {
      speedup.note =
        `Per request, sequential costs ${((seq.median * 1000 * PAGE_SIZE) / total).toFixed(1)} ms and prefetch ` +
        `${((pre.median * 1000 * PAGE_SIZE) / total).toFixed(1)} ms against ${LATENCY_MS} ms injected: ` +
        `the time above ${LATENCY_MS / 4} ms per page with prefetch is client or server work that does not overlap.`;
    }
    return r.build();
  } finally {
    await server?.close();
  }
}
