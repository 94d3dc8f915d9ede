/**
 * `npm run bench`: runs every figure in its own process (one after another, so figures never compete for
 * the two cores), then writes `bench/results/latest.md` and `latest.json`.
 *
 * Flags: `--quick` (fewer, shorter runs; results go to a temporary directory), `--only=id,id` (a subset;
 * also written to a temporary directory), `--out=dir` (where to write), `--merge` (with `--only`: put the
 * subset's results into the committed `latest.{md,json}` in place of those figures' previous results,
 * keeping every other figure's as it was, each merged figure saying when and at which commit it ran).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FIGURES } from './figures/index.js';
import { spawnTs, stopChild } from './lib/children.js';
import { environment } from './lib/env.js';
import type { FigureSpec } from './lib/figure.js';
import { type RunResult, toJson, toMarkdown } from './lib/report.js';
import type { FigureResult } from './lib/result.js';

/** The whole run must stay under ten minutes on the reference machine; keep a margin for writing results. */
const RUN_BUDGET_MS = 9.5 * 60_000;
const CHILD = fileURLToPath(new URL('./lib/figure-child.ts', import.meta.url));

function flag(name: string): string | undefined {
  const prefix = `--${name}=`;
  const hit = process.argv.find((arg) => arg === `--${name}` || arg.startsWith(prefix));
  if (hit === undefined) return undefined;
  return hit.startsWith(prefix) ? hit.slice(prefix.length) : '';
}

function notMeasured(spec: FigureSpec, reason: string, durationMs = 0): FigureResult {
  return {
    id: spec.id,
    title: spec.title,
    method: '',
    status: 'not-measured',
    reasons: [reason],
    measurements: [],
    checks: [],
    notes: [],
    durationMs,
  };
}

async function runFigure(spec: FigureSpec, timeoutMs: number, quick: boolean): Promise<FigureResult> {
  const started = performance.now();
  const child = spawnTs(CHILD, {
    nodeArgs: spec.nodeArgs,
    built: spec.built === true,
    args: [spec.id],
    env: { BENCH_QUICK: quick ? '1' : '0' },
  });
  let timer: NodeJS.Timeout | undefined;
  const outcome = await new Promise<FigureResult>((resolve) => {
    let result: FigureResult | undefined;
    child.on('message', (message: { type?: string; result?: FigureResult }) => {
      if (message?.type === 'result' && message.result) result = message.result;
    });
    child.once('exit', (code, signal) => {
      resolve(
        result ??
          notMeasured(
            spec,
            `the figure's process ended (${signal ?? `exit code ${code}`}) without a result`,
            performance.now() - started,
          ),
      );
    });
    timer = setTimeout(() => {
      result ??= notMeasured(spec, `timed out after ${Math.round(timeoutMs / 1000)} s`, timeoutMs);
      child.kill('SIGKILL');
    }, timeoutMs);
  });
  clearTimeout(timer);
  await stopChild(child);
  return outcome;
}

/**
 * The committed full run with `figures` in place of its results for the same figures (added in the order of
 * {@link FIGURES} when new), each saying it ran alone, when and at which commit.
 */
function mergeIntoLatest(
  resultsDir: string,
  figures: readonly FigureResult[],
  env: RunResult['environment'],
): RunResult {
  const latest = JSON.parse(readFileSync(path.join(resultsDir, 'latest.json'), 'utf8')) as RunResult;
  const byId = new Map(latest.figures.map((figure) => [figure.id, figure]));
  for (const figure of figures) {
    figure.notes.push(
      `Run alone on ${env.date} at commit ${env.commit} (npm run bench -- --only=${figure.id} --merge) and merged into the results of the full run above; the other figures were not re-run.`,
    );
    byId.set(figure.id, figure);
  }
  const order = FIGURES.map((spec) => spec.id);
  const rank = (id: string) => (order.includes(id) ? order.indexOf(id) : order.length);
  return { ...latest, figures: [...byId.values()].sort((a, b) => rank(a.id) - rank(b.id)) };
}

async function main(): Promise<void> {
  const quick = flag('quick') !== undefined;
  const only = flag('only')?.split(',').filter(Boolean);
  // A long figure runs only when asked for by name.
  const selected = only ? FIGURES.filter((f) => only.includes(f.id)) : FIGURES.filter((f) => !f.long);
  if (only && selected.length !== only.length) {
    throw new Error(`unknown figure in --only; known: ${FIGURES.map((f) => f.id).join(', ')}`);
  }
  const merge = flag('merge') !== undefined;
  if (merge && (only === undefined || quick))
    throw new Error('--merge needs --only=<figures> and a full run (no --quick)');
  const partial = quick || only !== undefined;
  const outDir =
    flag('out') ||
    (partial
      ? path.join(os.tmpdir(), 'company-data-bench')
      : fileURLToPath(new URL('./results/', import.meta.url)));

  const env = environment();
  const started = performance.now();
  const figures: FigureResult[] = [];
  for (const spec of selected) {
    const remaining = RUN_BUDGET_MS - (performance.now() - started);
    if (remaining < 20_000) {
      figures.push(notMeasured(spec, 'the ten-minute budget of the run was used up by earlier figures'));
      continue;
    }
    process.stderr.write(`\n▶ ${spec.title}\n`);
    const loadAtStart = os.loadavg()[0] ?? 0;
    const result = await runFigure(spec, Math.min(spec.timeoutMs, remaining), quick);
    result.loadAverage = { start: loadAtStart, end: os.loadavg()[0] ?? 0 };
    result.packages = spec.built ? 'built' : 'sources';
    process.stderr.write(`  done in ${Math.round(result.durationMs / 100) / 10} s: ${result.status}\n`);
    figures.push(result);
  }

  const run: RunResult = {
    environment: env,
    mode: quick ? 'quick' : 'full',
    durationMs: Math.round(performance.now() - started),
    figures,
  };
  mkdirSync(outDir, { recursive: true });
  const base = partial ? 'partial' : 'latest';
  writeFileSync(path.join(outDir, `${base}.md`), toMarkdown(run));
  writeFileSync(path.join(outDir, `${base}.json`), toJson(run));
  process.stdout.write(toMarkdown(run));
  if (merge) {
    const resultsDir = fileURLToPath(new URL('./results/', import.meta.url));
    const merged = mergeIntoLatest(resultsDir, figures, env);
    writeFileSync(path.join(resultsDir, 'latest.md'), toMarkdown(merged));
    writeFileSync(path.join(resultsDir, 'latest.json'), toJson(merged));
    process.stderr.write(
      `Merged ${figures.map((f) => f.id).join(', ')} into latest.md and latest.json in ${resultsDir}\n`,
    );
  }
  process.stderr.write(`\nWrote ${base}.md and ${base}.json to ${outDir}\n`);
}

await main();
