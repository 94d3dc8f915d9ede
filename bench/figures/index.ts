/** Every figure of the benchmark, in the order they run (numbered as in the issue). */
import type { FigureSpec } from '../lib/figure.js';

/** The figures, each run in its own process. */
export const FIGURES: readonly FigureSpec[] = [
  {
    id: 'sdk-overhead',
    title: '1. SDK overhead per request',
    nodeArgs: [],
    built: true,
    timeoutMs: 120_000,
  },
  {
    id: 'telemetry-overhead',
    title: '1b. OpenTelemetry cost per request',
    nodeArgs: [],
    built: true,
    timeoutMs: 240_000,
  },
  {
    id: 'tracing-channels',
    title: '1c. Tracing channels: cost per call',
    nodeArgs: [],
    built: true,
    timeoutMs: 240_000,
  },
  {
    id: 'full-export',
    title: '2. Full export, sequential vs ordered prefetch',
    nodeArgs: [],
    timeoutMs: 150_000,
  },
  {
    id: 'memory',
    title: '3. Heap growth while iterating 1,000,000 calls',
    nodeArgs: ['--expose-gc', '--max-old-space-size=6144'],
    timeoutMs: 150_000,
  },
  { id: 'mock-throughput', title: '4a. Mock server throughput over HTTP', nodeArgs: [], timeoutMs: 180_000 },
  { id: 'mock-dispatcher', title: '4b. Mock server in-process dispatcher', nodeArgs: [], timeoutMs: 60_000 },
  {
    id: 'mock-deep-page',
    title: '4c. Deep page vs first page (1,000,000 calls)',
    nodeArgs: ['--max-old-space-size=6144'],
    timeoutMs: 120_000,
  },
  {
    id: 'mock-lists-arriving',
    title: '4d. Lists while 100 calls a second arrive (1,000,000 calls)',
    nodeArgs: [],
    timeoutMs: 180_000,
  },
  { id: 'webhooks', title: '5. Webhook integrity under load', nodeArgs: [], timeoutMs: 90_000 },
  { id: 'import-cost', title: '6. Import cost', nodeArgs: [], built: true, timeoutMs: 120_000 },
  { id: 'export-under-faults', title: '7. Export under faults', nodeArgs: [], timeoutMs: 300_000 },
  {
    id: 'shared-quota',
    title: '8. Four worker processes, one key: own gates, a shared gate, a shared quota',
    nodeArgs: [],
    timeoutMs: 300_000,
  },
  {
    id: 'sync-under-deletions',
    title: '9. A sync with read-ahead while calls are deleted',
    nodeArgs: [],
    timeoutMs: 150_000,
  },
  {
    id: 'copy-to-postgres',
    title: '10. A full export of 1,000,000 calls into PostgreSQL and into an NDJSON file',
    nodeArgs: ['--max-old-space-size=4096'],
    timeoutMs: 900_000,
  },
  {
    id: 'check-postgres',
    title: '10b. A check of 1,000,000 calls against their copy in PostgreSQL, beside the export that made it',
    nodeArgs: ['--max-old-space-size=4096'],
    timeoutMs: 900_000,
    long: true,
  },
  {
    id: 'mock-binary',
    title: '11. The mock as one file: start and size against the npm command',
    nodeArgs: [],
    built: true,
    timeoutMs: 240_000,
  },
  {
    id: 'mock-long-run',
    title:
      '12a. A mock that lives for 12 hours: 20 calls a second over 100,000 calls, the clock moved an hour at a time',
    nodeArgs: [],
    timeoutMs: 540_000,
    long: true,
  },
  {
    id: 'mock-soak',
    title: '12b. Soak: 24 hours of 100 calls a second, the clock moved an hour at a time',
    nodeArgs: [],
    timeoutMs: 540_000,
    long: true,
  },
  {
    id: 'mock-sessions',
    title: '13. Sessions: 200 in one mock, what each costs to make and hold, and the lists beside them',
    nodeArgs: ['--expose-gc'],
    timeoutMs: 180_000,
  },
  {
    id: 'mock-watch-page',
    title: '14. The watch page closed: what it costs the API’s path',
    nodeArgs: [],
    timeoutMs: 180_000,
  },
];
