/** Bounded measuring loops: every loop stops at a count and at a time limit, whichever comes first. */
import { rotate } from './stats.js';

/** One contender of an interleaved comparison. */
export interface Variant {
  /** Label in the results. */
  label: string;
  /** One operation (one request). */
  op: () => Promise<unknown>;
}

/** Mean cost of one operation in a block. */
export interface BlockTiming {
  /** Wall-clock microseconds per operation. */
  wall: number;
  /**
   * CPU microseconds per operation spent by this process (user + system). Unlike wall time it barely moves
   * when other processes compete for the cores, so it is the steadier measure of client-side overhead.
   */
  cpu: number;
}

/**
 * Runs `op` sequentially up to `count` times or until `maxMs` has passed, and returns the mean wall and
 * CPU time per operation in microseconds.
 */
export async function timeBlock(
  op: () => Promise<unknown>,
  count: number,
  maxMs: number,
): Promise<BlockTiming> {
  const cpuBefore = process.cpuUsage();
  const begin = performance.now();
  const stopAt = begin + maxMs;
  let done = 0;
  while (done < count) {
    await op();
    done++;
    // Checking the clock every few operations keeps the check itself out of the measurement.
    if ((done & 15) === 0 && performance.now() > stopAt) break;
  }
  const wall = ((performance.now() - begin) * 1000) / done;
  const cpuUsed = process.cpuUsage(cpuBefore);
  return { wall, cpu: (cpuUsed.user + cpuUsed.system) / done };
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

/** Per variant, one value per round. */
export interface InterleaveResult {
  /** Wall µs per operation, `[variant][round]`. */
  wall: number[][];
  /** CPU µs per operation in this process, `[variant][round]`. */
  cpu: number[][];
}

/**
 * Measures several variants in interleaved rounds (A, B, C, then B, C, A, …) so slow phases of a shared
 * machine hit every variant alike.
 */
export async function interleave(
  variants: readonly Variant[],
  options: InterleaveOptions,
): Promise<InterleaveResult> {
  for (const variant of variants) await timeBlock(variant.op, options.warmup, options.maxMs);
  const wall = variants.map(() => [] as number[]);
  const cpu = variants.map(() => [] as number[]);
  for (let round = 0; round < options.rounds; round++) {
    for (const variant of rotate(variants, round)) {
      const timing = await timeBlock(variant.op, options.count, options.maxMs);
      const index = variants.indexOf(variant);
      wall[index]?.push(timing.wall);
      cpu[index]?.push(timing.cpu);
    }
    options.log?.(
      `round ${round + 1}/${options.rounds}: ${variants.map((v, i) => `${v.label} ${Math.round(wall[i]?.at(-1) ?? 0)} µs`).join(', ')}`,
    );
  }
  return { wall, cpu };
}

/** The timings of one named variant. */
export interface NamedTimings {
  /** Wall µs per operation, one value per round. */
  readonly wall: number[];
  /** Client CPU µs per operation, one value per round. */
  readonly cpu: number[];
}

/**
 * {@link interleave} over variants named by key, so a figure reads its results by name, never by position.
 */
export async function interleaveNamed<Name extends string>(
  variants: Readonly<Record<Name, Variant>>,
  options: InterleaveOptions,
): Promise<Record<Name, NamedTimings>> {
  const names = Object.keys(variants) as Name[];
  const results = await interleave(
    names.map((name) => variants[name]),
    options,
  );
  return Object.fromEntries(
    names.map((name, index) => [name, { wall: results.wall[index] ?? [], cpu: results.cpu[index] ?? [] }]),
  ) as Record<Name, NamedTimings>;
}
