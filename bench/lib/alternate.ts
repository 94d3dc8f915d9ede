/**
 * Alternating blocks against one baseline, for differences of a few µs a call on a busy machine: the
 * baseline runs a block between every two blocks of the others (B X B Y B Z B Y …), and each block is
 * compared with the mean of the two baseline blocks around it. A slow phase of the machine lasts longer
 * than a block, so it moves both sides of a pair alike, and the ratios of the pairs stay put where the
 * absolute times (and a ratio of medians taken over the whole run) do not.
 */
import { timeBlock, type Variant } from './loop.js';
import { rotate } from './stats.js';

/** Options of {@link alternateWithBaseline}. */
export interface AlternateOptions {
  /** Rounds; each round runs every variant once (each followed by a baseline block), from a different one. */
  rounds: number;
  /** Operations per block. */
  count: number;
  /** Time limit per block, in milliseconds. */
  maxMs: number;
  /** Warm-up operations per variant, baseline included, before the first block (JIT, connection pools). */
  warmup: number;
  /** Progress callback. */
  log?: (message: string) => void;
}

/** One variant's blocks, and each block against the baseline blocks around it. */
export interface PairedTimings {
  /** Wall µs per operation, one value per block. */
  readonly wall: number[];
  /** Client CPU µs per operation (this process, user + system), one value per block. */
  readonly cpu: number[];
  /** Each block's client CPU over the mean of the two baseline blocks around it. */
  readonly cpuRatio: number[];
  /** Each block's wall time over the mean of the two baseline blocks around it. */
  readonly wallRatio: number[];
  /** Each block's client CPU µs per operation minus the mean of the two baseline blocks around it. */
  readonly cpuExtra: number[];
}

/** What {@link alternateWithBaseline} measured. */
export interface AlternateResult<Name extends string> {
  /** The baseline's blocks (one more than the rounds times the variants). */
  baseline: { readonly wall: number[]; readonly cpu: number[] };
  /** Each variant's blocks and ratios. */
  variants: Record<Name, PairedTimings>;
}

/**
 * Runs `baseline` and `variants` in alternating blocks (see the module comment).
 *
 * @param baseline - what every block is compared with.
 * @param variants - the contenders, by name.
 * @param options - rounds, block size and limits.
 * @returns every block's timings and ratios.
 */
export async function alternateWithBaseline<Name extends string>(
  baseline: Variant,
  variants: Readonly<Record<Name, Variant>>,
  options: AlternateOptions,
): Promise<AlternateResult<Name>> {
  const names = Object.keys(variants) as Name[];
  for (const variant of [baseline, ...names.map((name) => variants[name])]) {
    await timeBlock(variant.op, options.warmup, options.maxMs);
  }
  const base = { wall: [] as number[], cpu: [] as number[] };
  const result = Object.fromEntries(
    names.map((name) => [name, { wall: [], cpu: [], cpuRatio: [], wallRatio: [], cpuExtra: [] }]),
  ) as unknown as Record<Name, PairedTimings>;
  let before = await timeBlock(baseline.op, options.count, options.maxMs);
  base.wall.push(before.wall);
  base.cpu.push(before.cpu);
  for (let round = 0; round < options.rounds; round++) {
    for (const name of rotate(names, round)) {
      const timing = await timeBlock(variants[name].op, options.count, options.maxMs);
      const after = await timeBlock(baseline.op, options.count, options.maxMs);
      const own = result[name];
      own.wall.push(timing.wall);
      own.cpu.push(timing.cpu);
      own.cpuRatio.push(timing.cpu / ((before.cpu + after.cpu) / 2));
      own.wallRatio.push(timing.wall / ((before.wall + after.wall) / 2));
      own.cpuExtra.push(timing.cpu - (before.cpu + after.cpu) / 2);
      base.wall.push(after.wall);
      base.cpu.push(after.cpu);
      before = after;
    }
    options.log?.(
      `round ${round + 1}/${options.rounds}: ${names.map((name) => `${name} ${(result[name].cpuRatio.at(-1) ?? 0).toFixed(3)}×`).join(', ')} of ${baseline.label}'s CPU`,
    );
  }
  return { baseline: base, variants: result };
}
