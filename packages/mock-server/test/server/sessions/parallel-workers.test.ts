import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer } from '../../../src/index.js';
import { type CliProcess, runToEnd, startCli } from '../../support/cli-process.js';

// Issue 36's acceptance: 8 worker processes, each in a session of its own in one CLI mock, run their
// workloads at the same time over HTTP (record changes, clock moves, armed faults, a tight quota, activity);
// none sees another's records, clock, faults, 429s or journal entries.

// biome-ignore lint/suspicious/noExplicitAny: tests read JSON bodies loosely.
type Loose = any;

const WORKERS = 8;
const WORKER_SCRIPT = fileURLToPath(new URL('./session-worker.mjs', import.meta.url));

interface WorkerReport {
  worker: number;
  session: string;
  victim: string;
  created: string;
  now: string;
  faults: number[];
  callIds: string[];
  workerSummaries: string[];
  pages: number;
  beforeThrottle: number;
  apiRequests: number;
  journal: { length: number; keyNames: string[]; withoutKey: number[] };
  arrived: number;
}

async function runWorker(cli: CliProcess, worker: number): Promise<WorkerReport> {
  const { code, stdout, stderr } = await runToEnd(process.execPath, [WORKER_SCRIPT], {
    ...process.env,
    MOCK_API_ROOT: cli.summary.apiRoot,
    MOCK_ADMIN_TOKEN: cli.summary.adminToken,
    WORKER: String(worker),
  });
  if (code !== 0) throw new Error(`worker ${worker} exited ${code}: ${stderr}`);
  return JSON.parse(stdout) as WorkerReport;
}

describe('8 worker processes sharing one CLI mock, a session each', () => {
  let cli: CliProcess;
  let reports: WorkerReport[];
  beforeAll(async () => {
    cli = await startCli(['--freeze']);
    reports = await Promise.all(Array.from({ length: WORKERS }, (_, worker) => runWorker(cli, worker)));
  }, 60_000);
  afterAll(() => cli?.stop());

  it('gives each worker a session of its own', () => {
    expect(new Set(reports.map((report) => report.session)).size).toBe(WORKERS);
  });

  it("keeps each worker's record changes to itself", () => {
    const victims = reports.map((report) => report.victim);
    expect(new Set(victims).size).toBe(WORKERS);
    for (const report of reports) {
      expect(report.callIds).not.toContain(report.victim);
      for (const other of victims.filter((victim) => victim !== report.victim))
        expect(report.callIds).toContain(other);
      expect(report.workerSummaries).toEqual([`worker ${report.worker}`]);
      expect(report.callIds).toContain(report.created);
    }
  });

  it("moves each worker's clock alone, and brings each its own activity", () => {
    for (const report of reports)
      expect(report.now).toBe(
        new Date(Date.parse('2026-06-01T12:00:00Z') + (report.worker + 1) * 3_600_000).toISOString(),
      );
    // What the same activity brings in the same hours to a mock of its own.
    for (const report of reports) {
      const alone = createMockServer({
        clock: 'frozen',
        activity: {
          callsPerMinute: (report.worker + 1) / 10,
          excusedShare: 0,
          recordingsPerHour: 0,
          deactivationsPerDay: 0,
          callDeletionsPerHour: 0,
        },
      });
      alone.clock.advance((report.worker + 1) * 3_600_000);
      expect(report.arrived).toBe(alone.recordCounts()[0]?.arrived);
    }
    // Eight rates over eight spans: eight different counts, none of them another worker's.
    expect(new Set(reports.map((report) => report.arrived)).size).toBe(WORKERS);
  });

  it('gives each worker its own armed faults and its own 429s', () => {
    for (const report of reports) {
      expect(report.faults).toEqual([503, 503, 200]);
      // Its quota, 40 + worker requests an hour, counted from the clock's move: the users list that passed,
      // the pages, then the teams lists until the 429.
      expect(1 + report.pages + report.beforeThrottle).toBe(40 + report.worker);
    }
  });

  it("journals each worker's requests in its own session only", () => {
    for (const report of reports) {
      expect(report.journal.length).toBe(report.apiRequests);
      // Its key's name on every entry but the two armed faults', answered before the key was read.
      expect(report.journal.keyNames).toEqual(['Full access']);
      expect(report.journal.withoutKey).toEqual([503, 503]);
    }
  });

  it('leaves no session behind, and nothing in the default world', async () => {
    const headers = { authorization: `Bearer ${cli.summary.adminToken}` };
    const sessions = (await (await fetch(`${cli.summary.adminURL}sessions`, { headers })).json()) as Loose;
    expect(sessions.data.map((info: { id: string }) => info.id)).toEqual(['default']);
    const journal = (await (await fetch(`${cli.summary.adminURL}journal`, { headers })).json()) as Loose;
    expect(journal.data).toEqual([]);
  });
});
