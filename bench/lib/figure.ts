/** The contract between the orchestrator and a figure, and a builder for figure results. */
import type { Check, FigureResult, Measurement } from './result.js';

/** What a figure gets from the orchestrator. */
export interface FigureContext {
  /** Fewer and shorter runs, for trying the harness out; never for committed results. */
  quick: boolean;
  /** Writes a progress line to stderr. */
  log(message: string): void;
}

/** Static facts about a figure: how to start it and how long it may take. */
export interface FigureSpec {
  /** Identifier, also the module name under `bench/figures/`. */
  id: string;
  /** Human title (numbered as in the issue). */
  title: string;
  /** Extra Node flags for its process. */
  nodeArgs: readonly string[];
  /**
   * Import the workspace packages' built `dist` files (what users install) instead of their TypeScript
   * sources: the figure's process runs without the `@company-data/source` condition. For figures whose
   * numbers depend on the shipped code (request overhead, import cost).
   */
  built?: boolean;
  /** Hard limit on its wall time; the process is killed beyond it. */
  timeoutMs: number;
  /**
   * Minutes long: run only when named in `--only` (a full run stays within its ten minutes), its results
   * merged into the committed ones with `--merge`.
   */
  long?: true;
}

/** A figure module. */
export interface FigureModule {
  /** Runs the figure and reports its result. */
  run(context: FigureContext): Promise<FigureResult>;
}

/** Collects a figure's measurements, checks and notes, then works out its status. */
export class ResultBuilder {
  readonly #spec: FigureSpec;
  readonly #started = performance.now();
  readonly #measurements: Measurement[] = [];
  readonly #checks: Check[] = [];
  readonly #notes: string[] = [];
  #method = '';

  /** @param spec - the figure being built. */
  constructor(spec: FigureSpec) {
    this.#spec = spec;
  }

  /** Sets the one-paragraph description of what was run. */
  method(text: string): this {
    this.#method = text;
    return this;
  }

  /** Adds a measurement. */
  measure(m: Measurement): Measurement {
    this.#measurements.push(m);
    return m;
  }

  /** Adds a target check. */
  check(c: Check): Check {
    this.#checks.push(c);
    return c;
  }

  /** Adds an observation. */
  note(text: string): void {
    this.#notes.push(text);
  }

  /** The checks so far (to decide whether to profile a miss). */
  get checks(): readonly Check[] {
    return this.#checks;
  }

  /** The finished result (a figure that throws is reported as not measured by its runner). */
  build(): FigureResult {
    return {
      id: this.#spec.id,
      title: this.#spec.title,
      method: this.#method,
      status: 'measured',
      reasons: [],
      measurements: this.#measurements,
      checks: this.#checks,
      notes: this.#notes,
      durationMs: Math.round(performance.now() - this.#started),
    };
  }
}
