/**
 * Figure 8: four worker processes export 20,000 calls (page_size 100, so 200 pages) under one key whose mock
 * quota is 40 requests per 2 s, with `examples/export-in-parts.ts`: each worker with its own gate, with one
 * gate shared through Redis, and with one gate and one quota shared through Redis. Reports the 429s the
 * server answered, the wall time at the server and the minimum the quota allows (requests ÷ rate).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RedisServer, startRedis } from '../../packages/redis-gate/test/support/redis.js';
import { TS_NODE_ARGS } from '../lib/children.js';
import { type FigureContext, ResultBuilder } from '../lib/figure.js';
import { atMost, type FigureResult, measurement } from '../lib/result.js';
import { type HostedServer, startHosted } from '../lib/servers.js';
import { FIGURES } from './index.js';

const SPEC = FIGURES.find((f) => f.id === 'shared-quota') as (typeof FIGURES)[number];
const WORKERS = 4;
const PAGE_SIZE = 100;
const QUOTA = { requests: 40, perSeconds: 2 };
const EXAMPLE = 'examples/export-in-parts.ts';
/** One export may take this long before it is killed (the slowest, without a shared gate, takes ~20 s). */
const EXPORT_TIMEOUT_MS = 90_000;

/** How the workers coordinate. */
type Variant = 'own gates' | 'shared gate' | 'shared quota';
const VARIANTS: readonly Variant[] = ['own gates', 'shared gate', 'shared quota'];

/** What one export cost, at the server. */
interface Outcome {
  variant: Variant;
  throttled: number;
  served: number;
  wallSeconds: number;
  exactlyOnce: boolean;
}

/** Runs the example's coordinator (which starts the workers) to its end and reads the key's traffic. */
async function exportOnce(
  server: HostedServer,
  redis: RedisServer,
  variant: Variant,
  total: number,
): Promise<Outcome> {
  const name = `bench ${variant}`;
  const apiKey = await server.call<string>('createKey', { name, quota: QUOTA });
  const out = mkdtempSync(join(tmpdir(), 'company-data-bench-parts-'));
  try {
    const args = [EXAMPLE, '--workers', String(WORKERS), '--page-size', String(PAGE_SIZE), '--out', out];
    if (variant !== 'own gates') args.push('--redis', redis.url);
    if (variant === 'shared quota') args.push('--quota', `${QUOTA.requests}/${QUOTA.perSeconds}`);
    const child = spawn(process.execPath, [...TS_NODE_ARGS, ...args], {
      env: { ...process.env, COMPANY_DATA_API_KEY: apiKey, COMPANY_DATA_BASE_URL: server.baseURL },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), EXPORT_TIMEOUT_MS);
    const [code] = (await once(child, 'exit')) as [number | null];
    clearTimeout(timer);
    if (code !== 0) throw new Error(`${variant}: the export exited with ${code}`);
    const summary = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as {
      calls?: number;
      duplicates?: number;
    };
    // The coordinator's page 1 comes first, before the workers start: the export is the workers' traffic.
    const [, ...traffic] = await server.call<{ atMs: number; status: number | null }[]>('keyTraffic', name);
    const times = traffic.map((entry) => entry.atMs);
    return {
      variant,
      throttled: traffic.filter((entry) => entry.status === 429).length,
      served: traffic.filter((entry) => entry.status === 200).length,
      wallSeconds: (Math.max(...times) - Math.min(...times)) / 1000,
      exactlyOnce: summary.calls === total && summary.duplicates === 0,
    };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** Runs figure 8. */
export async function run(ctx: FigureContext): Promise<FigureResult> {
  const r = new ResultBuilder(SPEC);
  const total = ctx.quick ? 8_000 : 20_000;
  const pages = total / PAGE_SIZE;
  const rate = QUOTA.requests / QUOTA.perSeconds;
  const minimum = pages / rate;
  r.method(
    `${WORKERS} worker processes of \`${EXAMPLE}\` export ${total.toLocaleString('en-US')} calls (page_size ${PAGE_SIZE}, ` +
      `${pages} pages in ${WORKERS} contiguous ranges) from the mock's HTTP listener in a child process, under one key ` +
      `whose quota is ${QUOTA.requests} requests per ${QUOTA.perSeconds} s (fixed windows, opened at the first request). ` +
      `Variants, one run each: every worker with its own gate; one gate shared through a redis-server on 127.0.0.1 ` +
      `(a 429 pauses every worker); one gate and the quota (${QUOTA.requests}/${QUOTA.perSeconds} s, sliding window) ` +
      `shared through it. 429s and wall time are read from the mock's journal (the workers' requests, from the ` +
      `first to the last); the quota-bound minimum is requests ÷ rate = ${pages} ÷ ${rate}/s = ${minimum} s.`,
  );
  let server: HostedServer | undefined;
  let redis: RedisServer | undefined;
  try {
    [server, redis] = await Promise.all([
      startHosted({ kind: 'mock', mockOptions: { quota: false, sizes: { calls: total } } }),
      startRedis(),
    ]);
    const outcomes: Outcome[] = [];
    for (const variant of VARIANTS) {
      const outcome = await exportOnce(server, redis, variant, total);
      ctx.log(
        `${variant}: ${outcome.throttled} 429s, ${outcome.wallSeconds.toFixed(1)} s, exactly once: ${outcome.exactlyOnce}`,
      );
      outcomes.push(outcome);
    }
    for (const outcome of outcomes) {
      r.measure(measurement(`${outcome.variant}: 429s received`, '429s', [outcome.throttled]));
      r.measure(
        measurement(`${outcome.variant}: wall time`, 's', [outcome.wallSeconds], {
          'vs minimum': `${(outcome.wallSeconds / minimum).toFixed(2)}×`,
          served: outcome.served,
        }),
      );
    }
    const quota = outcomes.find((outcome) => outcome.variant === 'shared quota') as Outcome;
    r.check(atMost('fleet.quota-429s', '429s with the shared quota', quota.throttled, 4, ''));
    r.check(
      atMost(
        'fleet.quota-wall',
        'wall time with the shared quota / quota-bound minimum',
        quota.wallSeconds / minimum,
        1.2,
      ),
    );
    const exact = outcomes.every((outcome) => outcome.exactlyOnce);
    r.check({
      id: 'fleet.exactly-once',
      label: 'every id exactly once across the workers (every variant)',
      value: exact ? 1 : 0,
      unit: 'bool',
      target: 'exactly once',
      pass: exact,
    });
    r.note(`Quota-bound minimum: ${minimum} s (${pages} requests at ${rate} requests/s).`);
    r.note(
      'Wall time counts from the workers’ first request to their last at the server, so process start-up is left out. ' +
        'The sliding window adds its 100 ms margin to each 2 s window (5 %), and fixed windows let the first ' +
        `${QUOTA.requests} requests through at once, so the floor under a shared quota is about ` +
        `${((pages / QUOTA.requests - 1) * (QUOTA.perSeconds + 0.1)).toFixed(1)} s.`,
    );
    return r.build();
  } finally {
    await Promise.all([server?.close(), redis?.stop()]);
  }
}
