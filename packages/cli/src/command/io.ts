import type { ProgressStream } from '../progress-bar.js';

/** What the command runs with: its streams, environment and working directory, and a stop signal. */
export interface CliIo {
  /** The result: the snapshot's summary, the verify report. */
  readonly stdout: { write(text: string): unknown };
  /** Progress and errors. */
  readonly stderr: ProgressStream;
  /** The environment (the key and base URL default to its variables). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** What relative paths are relative to. */
  readonly cwd: string;
  /** Aborted on Ctrl+C or SIGTERM. */
  readonly signal?: AbortSignal | undefined;
  /** How the SDK waits (tests move a mock server's clock instead). */
  readonly sleep?: ((ms: number) => Promise<void>) | undefined;
  /** The current time in epoch ms, on the clock of `sleep`. */
  readonly now?: (() => number) | undefined;
}
