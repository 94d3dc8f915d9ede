// Exports every call as NDJSON (one JSON object per line) to a file, or to stdout, with a progress bar on
// stderr. An export to a file survives an interrupt: Ctrl+C, a crash or a deploy stops it, and running the
// same command again resumes where it stopped, with no call missing and none twice.
//
//   npx tsx examples/export-calls-ndjson.ts calls.ndjson      # progress kept in calls.ndjson.checkpoint
//   npx tsx examples/export-calls-ndjson.ts > calls.ndjson    # to stdout: not resumable
//   npx tsx examples/export-calls-ndjson.ts --concurrency 4 calls.ndjson   # four pages fetched ahead
//
// A full export is a sync from no checkpoint (`client.calls.sync()`): the same newest-first walk that the
// daily sync does, so the checkpoint of each page is already a resumable one, and the final checkpoint is
// where tomorrow's sync starts (examples/sync-calls.ts reads the same progress file).
//
// After each page, its lines are written and flushed, then the progress file is replaced atomically with the
// SDK's checkpoint and the output's length. A run killed between the two left a page the progress does not
// count: the next run cuts the file back to the recorded length and reads that page again.
//
// One run at a time: opening the copy takes the lock of calls.ndjson first (`@company-data/cli`'s NdjsonCopy).
// A second run started meanwhile (a cron run overlapping a slow one) exits at once with 75, naming the run that
// holds it; a run that was killed leaves a stale lock, which the next run takes over by itself.
//
// `--concurrency` (default 1) fetches pages ahead, still written strictly in order. It is faster, but can
// miss a call when calls are both created and deleted during the export (`SyncRequestOptions` in the SDK's
// reference says when). Keep the default when calls may be deleted during the run.
//
// Ctrl+C or SIGTERM: the page in hand is written (a request still on the wire is abandoned), the run says how
// many calls are safely written and exits with 130, as interrupted commands do. A second Ctrl+C quits at once.
// Other failures exit with 1; what was recorded stays, so running again resumes.
import { parseArgs } from 'node:util';
import {
  COPY_LOCKED_EXIT_CODE,
  CopyError,
  CopyLockedError,
  isLastBatch,
  NdjsonCopy,
  progressPathOf,
} from '@company-data/cli/copy';
import { CompanyData, CompanyDataError } from '@company-data/sdk';
import { INTERRUPTED_EXIT_CODE, listenForInterrupt } from './lib/interrupt.js';

/**
 * A one-line progress bar: redrawn in place on a terminal, one line per change otherwise (CI logs), so the
 * same count is never printed twice.
 */
class ProgressBar {
  readonly #stream: NodeJS.WriteStream;
  #shown = '';
  constructor(stream: NodeJS.WriteStream) {
    this.#stream = stream;
  }
  update(done: number, total: number): void {
    const ratio = total > 0 ? Math.min(1, done / total) : 1;
    const width = 30;
    const filled = Math.round(ratio * width);
    const bar = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total} calls ${Math.round(ratio * 100)}%`;
    if (bar === this.#shown) return;
    this.#shown = bar;
    if (this.#stream.isTTY) this.#stream.write(`\r${bar}`);
    else this.#stream.write(`${bar}\n`);
  }
  /** A complete export is the whole: 100 %, even when calls were deleted while it ran (fewer than the total). */
  complete(done: number): void {
    this.update(done, done);
  }
  end(): void {
    if (this.#stream.isTTY && this.#shown !== '') this.#stream.write('\n');
  }
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { concurrency: { type: 'string', default: '1' } },
});
const [file] = positionals;
const progressFile = file ? progressPathOf(file) : undefined;
// `… | head` closes the pipe early: stop quietly instead of crashing on EPIPE.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(0);
});

const interrupt = listenForInterrupt();
const client = new CompanyData();
const progress = new ProgressBar(process.stderr);
let copy: NdjsonCopy | undefined;
/** True once the export is recorded complete: a Ctrl+C that lands after that changes nothing. */
let finished = false;

try {
  copy = await NdjsonCopy.open(file, { lock: { command: 'export-calls-ndjson.ts' } });
  const { resumed } = copy;
  if (resumed?.complete) {
    console.error(
      `${file} is already a complete export (${resumed.records} calls). To add the calls created since, run examples/sync-calls.ts ${file}; to export everything again, delete (or move away) ${file} and ${progressFile}.`,
    );
  } else {
    if (resumed) {
      const dropped =
        copy.droppedBytes > 0 ? `; cut off ${copy.droppedBytes} bytes of a page never recorded` : '';
      console.error(`Resuming the export into ${file}: ${resumed.records} calls already written${dropped}.`);
    }
    // The total is for the progress bar only: the export itself ends where the walk does.
    const first = await client.calls.list({ page_size: 1 }, { signal: interrupt.signal });
    const total = first.pagination.count;
    const run = client.calls.sync(
      { checkpoint: copy.checkpoint },
      { signal: interrupt.signal, concurrency: Number(values.concurrency) },
    );
    let stopped = false;
    for await (const batch of run.pages()) {
      await copy.write(batch);
      progress.update(copy.records, total);
      // The last batch completes the walk with no request: an interrupt landing on it leaves nothing to stop.
      if (interrupt.received && !isLastBatch(batch)) {
        stopped = true;
        break;
      }
    }
    if (!stopped) {
      // Kept, not removed: the final checkpoint is where the next sync starts (see sync-calls.ts).
      await copy.complete(run.checkpoint);
      finished = true;
      progress.complete(copy.records);
    }
    progress.end();
    if (finished) {
      console.error(`Exported ${copy.records} calls to ${file ?? 'stdout'}`);
    }
  }
} catch (error) {
  progress.end();
  // An interrupt aborts the request in flight: its error is the interrupt, reported below.
  if (!interrupt.received) {
    if (error instanceof CopyLockedError) {
      console.error(error.message);
      process.exitCode = COPY_LOCKED_EXIT_CODE;
    } else if (!(error instanceof CompanyDataError || error instanceof CopyError)) throw error;
    else {
      const resume =
        copy && copy.records > 0 && file
          ? ` ${copy.records} calls are safely written; run the same command again to resume.`
          : '';
      console.error(`Export failed: ${error.message}${resume}`);
      process.exitCode = 1;
    }
  }
} finally {
  await copy?.close();
  await client.close();
}

if (interrupt.received && !finished) {
  const written = copy?.records ?? 0;
  console.error(
    file
      ? `Interrupted: ${written} calls are safely written to ${file}. Run the same command again to resume.`
      : `Interrupted: ${written} calls were written to stdout. Export to a file to be able to resume.`,
  );
  process.exitCode = INTERRUPTED_EXIT_CODE;
}
