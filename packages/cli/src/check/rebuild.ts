// How to rebuild a file copy that drifted: a file copy is append-only (a sync only adds lines), so what a
// check finds in it is mended by a new export, which then takes the old file's place with its checkpoint.
import { progressPathOf } from '../copy/ndjson-copy.js';

/**
 * A word as a shell takes it: as it is when it is plain, else in single quotes.
 *
 * @param word - a path, a connection string.
 */
export function shellWord(word: string): string {
  return /^[\w./:@%+=,-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/**
 * The commands that rebuild a file copy: an export into a new file, then the new file and its checkpoint
 * moved over the old ones.
 *
 * @param list - the list copied.
 * @param file - the copy, as the user named it.
 * @returns the commands, one a line.
 */
export function rebuildCommands(list: string, file: string): string[] {
  const next = `${file}.new`;
  return [
    `company-data export ${list} --out ${shellWord(next)}`,
    `mv ${shellWord(next)} ${shellWord(file)} && mv ${shellWord(progressPathOf(next))} ${shellWord(progressPathOf(file))}`,
  ];
}

/** How to rebuild a file copy, with the commands on lines of their own. */
function howToRebuild(list: string, file: string): string {
  const commands = rebuildCommands(list, file).map((command) => `  ${command}`);
  return `export ${list} into a new file, then put it and its checkpoint in place of the old ones (while no sync of it runs):\n${commands.join('\n')}`;
}

/**
 * What to do about a file copy that differs from its list.
 *
 * @param list - the list copied.
 * @param file - the copy, as the user named it.
 */
export function fileRebuild(list: string, file: string): string {
  return `A file copy is append-only: to rebuild it, ${howToRebuild(list, file)}`;
}

/**
 * Why a file copy is not repaired, and how to rebuild it.
 *
 * @param list - the list copied.
 * @param file - the copy, as the user named it.
 */
export function fileRepairRefusal(list: string, file: string): string {
  return `--repair mends a copy in PostgreSQL only: a file copy is append-only. To rebuild ${file}, ${howToRebuild(list, file)}`;
}
