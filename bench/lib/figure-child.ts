/**
 * Child-process entry for one figure: `figure-child.ts <id>`. Runs `bench/figures/<id>.ts` and sends its
 * result to the orchestrator over IPC. A figure that throws becomes "not measured" with the reason, never a crash.
 */
import { FIGURES } from '../figures/index.js';
import type { FigureModule } from './figure.js';
import type { FigureResult } from './result.js';

const id = process.argv[2] ?? '';
const spec = FIGURES.find((f) => f.id === id);

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0] ?? text;
}

async function main(): Promise<FigureResult> {
  if (!spec) throw new Error(`unknown figure ${id}`);
  const started = performance.now();
  try {
    const module = (await import(`../figures/${id}.ts`)) as FigureModule;
    return await module.run({
      quick: process.env.BENCH_QUICK === '1',
      log: (message) => process.stderr.write(`  [${id}] ${message}\n`),
    });
  } catch (error) {
    process.stderr.write(`  [${id}] ${error instanceof Error ? error.stack : error}\n`);
    return {
      id,
      title: spec.title,
      method: '',
      status: 'not-measured',
      reasons: [`the figure failed: ${firstLine(error)}`],
      measurements: [],
      checks: [],
      notes: [],
      durationMs: Math.round(performance.now() - started),
    };
  }
}

const result = await main();
process.send?.({ type: 'result', result }, () => process.exit(0));
