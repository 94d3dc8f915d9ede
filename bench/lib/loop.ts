/** Bounded measuring loops: every loop stops at a count and at a time limit, whichever comes first. */
import { rotate } from './stats.js';

/** One contender of an interleaved comparison. */
export interface Variant {
  /** Label in the results. */
  label: string;
  /** One operation (one request). */
  op: () => Promise<unknown>;
}

/**
 * Runs `op` sequentially up to `count` times or until `maxMs` has passed, and returns the mean time per
 * operation in microseconds.
 */
export async function timeBlock(op: () => Promise<unknown>, count: number, maxMs: number): Promise<number> {
  const begin = performance.now();
  const stopAt = begin + maxMs;
  let done = 0;
  while (done < count) {
    await op();
    done++;
    // Checking the clock every few operations keeps the check itself out of the measurement.
    if ((done & 15) === 0 && performance.now() > stopAt) break;
  }
  return ((performance.now() - begin) * 1000) / done;
}

/** Runs `op` sequentially for up to `count` operations or `maxMs`, and returns how many were done. */
export async function runFor(op: () => Promise<unknown>, count: number, maxMs: number): Promise<number> {
  const stopAt = performance.now() + maxMs;
  let done = 0;
  while (done < count) {
    await op();
    done++;
    if ((done & 15) === 0 && performance.now() > stopAt) break;
  }
  return done;
}

/** Options of {@link interleave}. */
export interface InterleaveOptions {
  /** Rounds; each round runs every variant once, starting from a different one. */
  rounds: number;
  /** Operations per variant per round. */
  count: number;
  /** Time limit per variant per round, in milliseconds. */
  maxMs: number;
  /** Warm-up operations per variant before the first round (JIT, connection pools). */
  warmup: number;
  /** Progress callback. */
  log?: (message: string) => void;
}

/**
 * Measures several variants in interleaved rounds (A, B, C, then B, C, A, …) so slow phases of a shared
 * machine hit every variant alike. Returns µs/op per variant per round.
 */
export async function interleave(
  variants: readonly Variant[],
  options: InterleaveOptions,
): Promise<number[][]> {
  for (const variant of variants) await timeBlock(variant.op, options.warmup, options.maxMs);
  const results = variants.map(() => [] as number[]);
  for (let round = 0; round < options.rounds; round++) {
    for (const variant of rotate(variants, round)) {
      const micros = await timeBlock(variant.op, options.count, options.maxMs);
      results[variants.indexOf(variant)]?.push(micros);
    }
    options.log?.(
      `round ${round + 1}/${options.rounds}: ${variants.map((v, i) => `${v.label} ${Math.round(results[i]?.at(-1) ?? 0)} µs`).join(', ')}`,
    );
  }
  return results;
}
