import { open, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

const TEMP = /^\.(.+)\.\d+\.company-data-tmp$/;

/** The temporary file of `path` for this process: hidden, beside it, named after it and the pid. */
function tempPath(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.company-data-tmp`);
}

/**
 * Writes `text` to `path` all at once or not at all: into a temporary file in the same directory, flushed
 * to disk, then renamed over `path` (a rename within a directory is atomic). A reader sees the old file
 * or the new one, never part of one; on failure the temporary file is removed.
 *
 * @throws the file system's error (the old file, if any, untouched).
 */
export async function writeAtomically(path: string, text: string): Promise<void> {
  const temp = tempPath(path);
  try {
    const handle = await open(temp, 'w', 0o644);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/**
 * Removes what an earlier run killed during its final write left behind: the temporary files of `path`.
 * (Two runs on one file at the same time never happen: each writer holds the lock of its destination first.)
 */
export async function removeStaleTempFiles(path: string): Promise<void> {
  const names = await readdir(dirname(path)).catch(() => [] as string[]);
  for (const name of names) {
    if (TEMP.exec(name)?.[1] === basename(path)) await rm(join(dirname(path), name), { force: true });
  }
}
