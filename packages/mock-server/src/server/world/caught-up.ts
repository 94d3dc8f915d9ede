import type { JournalReader } from '../../data/journal/bounded-journal.js';
import type { RecordControls } from '../../data/record-controls/controls.js';

/**
 * The record controls, each applying what the clock has brought first, so they act on the data as it is now.
 *
 * @param controls - the controls.
 * @param catchUp - applies the activity up to now.
 */
export function caughtUpControls(controls: RecordControls, catchUp: () => void): RecordControls {
  return {
    create: (...args) => {
      catchUp();
      return controls.create(...args);
    },
    update: (...args) => {
      catchUp();
      return controls.update(...args);
    },
    delete: (...args) => {
      catchUp();
      controls.delete(...args);
    },
    get: (...args) => {
      catchUp();
      return controls.get(...args);
    },
  };
}

/**
 * A journal whose reads apply what the clock has brought first (its emptying too, as the controls do).
 *
 * @param journal - the journal.
 * @param catchUp - applies the activity up to now.
 */
export function caughtUpJournal<Entry>(
  journal: JournalReader<Entry>,
  catchUp: () => void,
): JournalReader<Entry> {
  return {
    read: (options) => {
      catchUp();
      return journal.read(options);
    },
    stats: () => {
      catchUp();
      return journal.stats();
    },
    clear: () => {
      catchUp();
      journal.clear();
    },
  };
}
