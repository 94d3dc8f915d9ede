/**
 * What figures 12a and 12b both report of a long run: the memory of the process as it started, at the start and
 * after the hours, the time each hour of activity took to apply, and what the mock holds grown per arrived call.
 */
import type { ResultBuilder } from './figure.js';
import type { Checkpoint, LongRun } from './long-run.js';
import { measurement } from './result.js';

const MB = 2 ** 20;

/** The first and last checkpoints of a run, and the calls and recordings that arrived between them. */
export interface LongRunSpan {
  readonly start: Checkpoint;
  readonly end: Checkpoint;
  /** Arrived between the start and the end, and still there at the end. */
  readonly arrived: number;
}

/**
 * Reports a long run's memory: the RSS as the command started, at the start and after the hours (with the calls,
 * the heap and the array buffers then), the time to apply each hour, and the heap in use plus the array buffers
 * after a full collection (what the mock holds, beside what the process has from the system), grown per
 * arrived call.
 *
 * @param r - the figure's result.
 * @param run - the run.
 * @param hours - the hours of mock time it moved.
 * @param readings - what the start's and the end's RSS reading is named.
 * @returns the run's start and end, for the figure's own checks.
 */
export function measureLongRunMemory(
  r: ResultBuilder,
  run: LongRun,
  hours: number,
  readings: { readonly start: string; readonly end: string },
): LongRunSpan {
  const { coldRss, points } = run;
  const start = points[0] as Checkpoint;
  const end = points[points.length - 1] as Checkpoint;
  const arrived = end.arrived - start.arrived;
  r.measure(measurement('RSS as the command started, before any request', 'MB', [coldRss / MB]));
  r.measure(measurement(readings.start, 'MB', [start.rss / MB]));
  r.measure(
    measurement(readings.end, 'MB', [end.rss / MB], {
      calls: end.calls,
      'arrived calls (still there)': arrived,
      'heap used MB': Math.round(end.heapUsed / MB),
      'array buffers MB': Math.round(end.arrayBuffers / MB),
    }),
  );
  r.measure(
    measurement(
      'time to apply an hour of activity (the first request after a move)',
      'ms',
      points.slice(1).map((point) => Math.round(point.catchUpMs)),
    ),
  );
  const held = (point: Checkpoint) => point.heapUsed + point.arrayBuffers;
  r.measure(
    measurement(
      'heap in use + array buffers after a full collection, grown per arrived call',
      'bytes',
      [(held(end) - held(start)) / arrived],
      {
        'at the start MB': Math.round(held(start) / MB),
        [`after ${hours} hours MB`]: Math.round(held(end) / MB),
      },
    ),
  );
  return { start, end, arrived };
}
