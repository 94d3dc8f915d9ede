// The daily sync of a copy of the calls: takes only the calls created since the last run, appends them to an
// NDJSON file (or prints them), reports the recent calls whose content changed, and saves the new checkpoint.
//
//   npx tsx examples/sync-calls.ts calls.ndjson --look-back 24h   # checkpoint kept in calls.ndjson.checkpoint
//   npx tsx examples/sync-calls.ts --checkpoint calls.checkpoint   # the new calls to stdout, one JSON a line
//
// No checkpoint yet (the first run) means a full export. The checkpoint file is the one export-calls-ndjson.ts
// keeps, so a finished export is where the sync takes over. Each page is written, then the checkpoint after it
// is saved atomically: a run stopped by Ctrl+C, SIGTERM or a crash resumes on the next run, with no call
// missing and none twice (exit code 130 when a signal stopped it, 1 on another failure, 2 on bad arguments).
// One run at a time: a run that finds the copy held by another exits with 75, naming it.
//
// `--look-back 24h` (`s`, `m`, `h` or `d`) also re-reads the calls created within that window before the
// checkpoint and reports, on stderr, those whose content changed since (a call excused late) and those that
// left the list (deleted). What it cannot see: changes to older calls and their deletion (the API has no
// change feed). See the guide "Keeping a copy up to date".
import { parseArgs } from 'node:util';
import {
  COPY_LOCKED_EXIT_CODE,
  CopyError,
  CopyLockedError,
  isLastBatch,
  NdjsonCopy,
  parseDuration,
  progressPathOf,
  WINDOW_STARTS_NOW,
  windowStartsNow,
} from '@company-data/cli/copy';
import { type Call, CompanyData, CompanyDataError } from '@company-data/sdk';
import { INTERRUPTED_EXIT_CODE, listenForInterrupt } from './lib/interrupt.js';

const USAGE = 'Usage: sync-calls.ts [calls.ndjson] [--checkpoint <file>] [--look-back <n>s|m|h|d]';

function usageError(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

function parseArguments() {
  try {
    const { values, positionals } = parseArgs({
      allowPositionals: true,
      options: { checkpoint: { type: 'string' }, 'look-back': { type: 'string', default: '0s' } },
    });
    if (positionals.length > 1) usageError(`One output file at most, got ${positionals.length}.`);
    const [file] = positionals;
    const checkpointFile = values.checkpoint ?? (file ? progressPathOf(file) : undefined);
    if (!checkpointFile) usageError('Give an output file, or --checkpoint <file> to print the new calls.');
    const lookBack = parseDuration(values['look-back']);
    if (lookBack === undefined)
      usageError(`--look-back ${values['look-back']}: expected a duration such as 24h.`);
    return { file, checkpointFile, lookBack, lookBackText: values['look-back'] };
  } catch (error) {
    if (error instanceof TypeError) usageError(error.message); // parseArgs: an unknown or incomplete option
    throw error;
  }
}

const { file, checkpointFile, lookBack, lookBackText } = parseArguments();
const interrupt = listenForInterrupt();
const client = new CompanyData();
let copy: NdjsonCopy | undefined;
let created = 0;
let changed = 0;
let removed = 0;
/** True once the run is recorded complete: a Ctrl+C that lands after that changes nothing. */
let finished = false;

/** One line on stderr per call that changed within the look-back window. */
function reportChanged(call: Call): void {
  const excused = call.is_excused ? `, excused: ${call.excuse_reason ?? 'no reason given'}` : '';
  console.error(`changed ${call.id} (created ${call.created_at}${excused})`);
}

try {
  // Takes the lock of the file (of the checkpoint file, printing to stdout): one run at a time.
  copy = await NdjsonCopy.open(file, { progressFile: checkpointFile, lock: { command: 'sync-calls.ts' } });
  const { resumed } = copy;
  if (!resumed) console.error(`No checkpoint in ${checkpointFile}: a first run, so a full export.`);
  else if (!resumed.complete)
    console.error(`Resuming an interrupted run: ${resumed.records} calls already written.`);
  // An export's checkpoint (or none) kept no look-back window: this run has nothing to compare with yet.
  const startsWindow = windowStartsNow(copy.checkpoint);
  const run = client.calls.sync({ checkpoint: copy.checkpoint, lookBack }, { signal: interrupt.signal });
  let stopped = false;
  for await (const batch of run.pages()) {
    created += (await copy.write(batch)).length;
    for (const change of batch.changes) {
      if (change.type === 'changed') {
        changed++;
        reportChanged(change.record);
      } else if (change.type === 'removed') {
        removed++;
        console.error(`removed ${change.id}`);
      }
    }
    // The last batch completes the walk with no request: an interrupt landing on it leaves nothing to stop.
    if (interrupt.received && !isLastBatch(batch)) {
      stopped = true;
      break;
    }
  }
  if (!stopped) {
    await copy.complete(run.checkpoint);
    finished = true;
    const window =
      lookBack > 0 && startsWindow
        ? WINDOW_STARTS_NOW
        : `${changed} changed and ${removed} removed within ${lookBackText}`;
    console.error(`Synced: ${created} new calls; ${window}; checkpoint saved in ${checkpointFile}.`);
  }
} catch (error) {
  if (error instanceof CopyLockedError) {
    console.error(error.message);
    process.exitCode = COPY_LOCKED_EXIT_CODE;
  } else if (!interrupt.received) {
    if (!(error instanceof CompanyDataError || error instanceof CopyError)) throw error;
    console.error(`Sync failed: ${error.message} (${created} new calls were saved; run again to go on)`);
    process.exitCode = 1;
  }
} finally {
  await copy?.close();
  await client.close();
}

if (interrupt.received && !finished) {
  console.error(
    `Interrupted: ${created} new calls are safely written${file ? ` to ${file}` : ''}, up to the checkpoint in ${checkpointFile}. Run the same command again to go on.`,
  );
  process.exitCode = INTERRUPTED_EXIT_CODE;
}
