import { Presets, SingleBar } from 'cli-progress';

/**
 * Where progress goes: standard error, or anything like it (tests pass their own).
 *
 * @example
 * ```ts
 * const progress: ProgressStream = process.stderr;
 * ```
 */
export interface ProgressStream {
  /**
   * Writes text as it is.
   *
   * @param text - a line, or a redrawing of the bar.
   */
  write(text: string): unknown;
  /** A terminal gets a bar redrawn in place; anything else (a CI log, a file) gets plain lines. */
  isTTY?: boolean | undefined;
  /** Terminal width, for the bar. */
  columns?: number | undefined;
}

/** Lines printed per bar in a log: one per tenth of the way. */
const LOG_STEPS = 10;

/**
 * Progress on standard error: plain lines for each phase, and for long phases a bar (cli-progress) in a
 * terminal or a line per tenth of the way in a log.
 */
export class ProgressBar {
  readonly #stream: ProgressStream;
  readonly #prefix: string;
  #bar: { label: string; total: number; step: number; tty?: SingleBar } | undefined;

  /**
   * @param stream - where to write.
   * @param prefix - starts every plain line, e.g. `snapshot`.
   */
  constructor(stream: ProgressStream, prefix: string) {
    this.#stream = stream;
    this.#prefix = prefix;
  }

  /** Writes one line (after the bar, if one is showing). */
  line(text: string): void {
    this.#bar?.tty?.stop();
    if (this.#bar) this.#bar.tty = undefined;
    this.#stream.write(`${this.#prefix}: ${text}\n`);
  }

  /** Starts a bar for `total` steps of `label`. */
  start(label: string, total: number): void {
    this.#bar = { label, total, step: -1 };
    if (this.#stream.isTTY) this.#bar.tty = this.#newBar(0);
    else this.update(0);
  }

  /** Moves the bar to `done` steps. */
  update(done: number): void {
    const bar = this.#bar;
    if (bar === undefined) return;
    if (this.#stream.isTTY) {
      bar.tty ??= this.#newBar(done);
      bar.tty.update(done, { label: bar.label });
      return;
    }
    const step = bar.total === 0 ? LOG_STEPS : Math.floor((done / bar.total) * LOG_STEPS);
    if (step === bar.step) return;
    bar.step = step;
    const percent = bar.total === 0 ? 100 : Math.round((done / bar.total) * 100);
    this.#stream.write(`${this.#prefix}: ${bar.label} ${done}/${bar.total} (${percent}%)\n`);
  }

  /**
   * Moves the bar to its end: `done` becomes the whole, so a copy that completes shows 100 % even when
   * records left the list while it ran (fewer than the total counted at the start).
   */
  complete(done: number): void {
    const bar = this.#bar;
    if (bar === undefined) return;
    bar.total = done;
    bar.tty?.setTotal(done);
    this.update(done);
  }

  /** Ends the bar, leaving it on screen. */
  stop(): void {
    this.#bar?.tty?.stop();
    this.#bar = undefined;
  }

  #newBar(value: number): SingleBar {
    const bar = new SingleBar(
      {
        stream: this.#stream as NodeJS.WritableStream,
        format: `${this.#prefix}: {label} [{bar}] {value}/{total} {percentage}% | eta {eta_formatted}`,
        hideCursor: false,
        gracefulExit: false,
        linewrap: false,
      },
      Presets.legacy,
    );
    bar.start(this.#bar?.total ?? 0, value, { label: this.#bar?.label ?? '' });
    return bar;
  }
}
