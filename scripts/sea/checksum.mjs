// The binary's checksum file, in the format `sha256sum` writes and `sha256sum -c` checks: the hex digest, two
// spaces, the file's name (no folder), so it checks where both files are downloaded side by side.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

/**
 * The SHA-256 of a file, in hex, read as a stream (the binary is about 100 MB).
 *
 * @param {string} file
 * @returns {Promise<string>}
 */
export async function sha256Of(file) {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/**
 * Writes `checksumFile` for `file`.
 *
 * @param {string} file
 * @param {string} checksumFile
 * @returns {Promise<string>} the digest.
 */
export async function writeChecksum(file, checksumFile) {
  const digest = await sha256Of(file);
  await writeFile(checksumFile, checksumLine(digest, path.basename(file)));
  return digest;
}

/**
 * One line of a `sha256sum` file.
 *
 * @param {string} digest - hex.
 * @param {string} name - the file's name, without its folder.
 */
export function checksumLine(digest, name) {
  return `${digest}  ${name}\n`;
}

/**
 * Why `file` does not match its checksum file, or undefined when it does (its digest and its name).
 *
 * @param {string} file
 * @param {string} checksumFile
 * @returns {Promise<string | undefined>}
 */
export async function checksumProblem(file, checksumFile) {
  const expected = checksumLine(await sha256Of(file), path.basename(file));
  const written = await readFile(checksumFile, 'utf8');
  return written === expected
    ? undefined
    : `${path.basename(checksumFile)} says ${JSON.stringify(written)}, the file is ${JSON.stringify(expected)}`;
}
