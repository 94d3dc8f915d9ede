/** The shape every figure reports back to the orchestrator, and helpers to build it. */
import { median } from './stats.js';

/** One measured quantity: the value of each interleaved run and their median. */
export interface Measurement {
  /** What was measured, e.g. `SDK, validation on`. */
  label: string;
  /** Unit of the values, e.g. `µs/request`, `req/s`, `MB`. */
  unit: string;
  /** One value per run, in run order. */
  runs: number[];
  /** Median of `runs`. */
  median: number;
  /** Extra per-measurement facts (latency percentiles, counts). */
  extra?: Record<string, number | string>;
}

/** A target check: a value compared with its target. `pass` is null when it could not be measured. */
export interface Check {
  /** Stable identifier, e.g. `overhead.validate-on`. */
  id: string;
  /** What the value means, e.g. `SDK (validation on) / raw undici`. */
  label: string;
  /** The measured value, or null when not measured. */
  value: number | null;
  /** Unit or kind of the value, e.g. `×`. */
  unit: string;
  /** The target, written as a comparison, e.g. `≤ 1.15×`. */
  target: string;
  /** Whether the target was met; null when not measured. */
  pass: boolean | null;
  /** Why it was not measured, or what limits it when missed. */
  note?: string;
}

/** The outcome of one figure. */
export interface FigureResult {
  /** Figure identifier, e.g. `sdk-overhead`. */
  id: string;
  /** Human title. */
  title: string;
  /** What was run, in one or two sentences (method, sizes, run counts). */
  method: string;
  /** `measured` when the figure ran, `not-measured` when it failed or ran out of time (see `reasons`). */
  status: 'measured' | 'not-measured';
  /** Why parts were not measured. */
  reasons: string[];
  /** All measurements. */
  measurements: Measurement[];
  /** All target checks. */
  checks: Check[];
  /** Free-form observations (integrity checks, profiles of misses). */
  notes: string[];
  /** Wall time of the figure in milliseconds. */
  durationMs: number;
  /** The machine's 1-minute load average when the figure started and ended (other work on a shared machine). */
  loadAverage?: { start: number; end: number };
  /** Which code of the workspace packages the figure ran: the built `dist` files or the TypeScript sources. */
  packages?: 'built' | 'sources';
}

/** Builds a measurement from per-run values. */
export function measurement(
  label: string,
  unit: string,
  runs: number[],
  extra?: Record<string, number | string>,
): Measurement {
  return { label, unit, runs, median: median(runs), ...(extra ? { extra } : {}) };
}

/** A unit after a number: `×` (or none) right after it, any other unit after a space. */
const unitText = (unit: string) => (unit === '×' || unit === '' ? unit : ` ${unit}`);

/** Builds a check with an upper bound (`value ≤ limit`). */
export function atMost(id: string, label: string, value: number, limit: number, unit = '×'): Check {
  return { id, label, value, unit, target: `≤ ${limit}${unitText(unit)}`, pass: value <= limit };
}

/** Builds a check with a lower bound (`value ≥ limit`). */
export function atLeast(id: string, label: string, value: number, limit: number, unit = '×'): Check {
  return { id, label, value, unit, target: `≥ ${limit}${unitText(unit)}`, pass: value >= limit };
}

/** Builds a check with a strict upper bound (`value < limit`). */
export function below(id: string, label: string, value: number, limit: number, unit: string): Check {
  return { id, label, value, unit, target: `< ${limit} ${unit}`, pass: value < limit };
}
