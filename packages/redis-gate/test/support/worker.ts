// One worker process of the tests: reads its pages of /calls/ through a client whose gate is shared
// through Redis (or not), and reports on stdout, one JSON object a line: `started`, `ready` (its gate
// connected), every 429 pause it took (`paused`), every log line of the client (`log`), then `done` with
// the ids it read. With `barrier`, it starts reading only when a line arrives on stdin, so that the workers
// of a test start together rather than as each finishes compiling.
//
//   node <this file compiled by scripts/lib/source-bundle.mjs> '<JSON of WorkerConfig>'
//   node --conditions=@company-data/source --import tsx worker.ts '<JSON of WorkerConfig>' (the same, slower)
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { CompanyData, type Logger, type RateQuota } from '@company-data/sdk';
import { RedisRateGate } from '../../src/index.js';

/** What a worker is told to do. */
export interface WorkerConfig {
  baseURL: string;
  apiKey: string;
  /** Its name, sent in an `x-worker` header so the mock's journal tells the workers apart. */
  worker: string;
  /** `none`: the client's own gate; `gate`: a shared gate; `quota`: a shared gate with a quota. */
  mode: 'none' | 'gate' | 'quota';
  redis?: string;
  quota?: RateQuota;
  /** The first and last page (inclusive) to read. */
  pages: [number, number];
  pageSize: number;
  /** A pause after each page, in ms: a worker that sends now and then rather than back to back. */
  paceMs?: number;
  /** Wait for a line on stdin after `ready`. */
  barrier?: boolean;
  /** The gate's `timeoutMs`. */
  timeoutMs?: number;
}

/** A line of the worker's output. */
export type WorkerEvent =
  | { type: 'started'; at: number }
  | { type: 'ready'; at: number; shared: boolean }
  | { type: 'paused'; at: number; waitMs: number }
  | { type: 'log'; level: string; message: string }
  | { type: 'done'; at: number; ids: string[] };

const config = JSON.parse(process.argv[2] ?? '{}') as WorkerConfig;
const emit = (event: WorkerEvent) => process.stdout.write(`${JSON.stringify(event)}\n`);
emit({ type: 'started', at: Date.now() });

const logger: Logger = Object.fromEntries(
  (['debug', 'info', 'warn', 'error'] as const).map((level) => [
    level,
    (message: string) => emit({ type: 'log', level, message }),
  ]),
) as unknown as Logger;

const gate =
  config.mode === 'none'
    ? undefined
    : new RedisRateGate({
        redis: config.redis,
        quota: config.mode === 'quota' ? config.quota : undefined,
        timeoutMs: config.timeoutMs,
      });
const client = new CompanyData({
  apiKey: config.apiKey,
  baseURL: config.baseURL,
  gate,
  maxRetries: 20,
  logger,
  logLevel: 'info',
  defaultHeaders: { 'x-worker': config.worker },
  onRateLimit: ({ waitMs }) => emit({ type: 'paused', at: Date.now(), waitMs }),
});
try {
  // The client adopted the gate, which connects: wait (bounded) until it is shared. A gate still not shared
  // after 10 s does not pass silently: 'ready' says so, and the tests check it (sharedAtStart).
  for (let tries = 0; tries < 400 && gate !== undefined && !gate.shared; tries++) await sleep(25);
  emit({ type: 'ready', at: Date.now(), shared: gate?.shared ?? false });
  if (config.barrier) await once(createInterface({ input: process.stdin }), 'line');
  const ids: string[] = [];
  const [first, last] = config.pages;
  for (let page = first; page <= last; page++) {
    const { data } = await client.calls.list({ page, page_size: config.pageSize });
    for (const call of data) ids.push(call.id);
    if (config.paceMs) await sleep(config.paceMs);
  }
  emit({ type: 'done', at: Date.now(), ids });
} finally {
  await client.close();
  await gate?.close();
}
