// The mock's single executable as a release file: what it is called, where the build puts it, and the one
// mark Node's single-executable support looks for. Every rule about the file's name and place is here.
import path from 'node:path';

/** The folder, at the root of the repository (or of a release copy), that the build writes to; git-ignored. */
export const ARTEFACTS_DIR = 'release-artefacts';

/** The command the binary is: its file names start with this. */
export const COMMAND = 'company-data-mock';

/**
 * The fuse Node's single executables carry: postject flips it when it injects the blob, and Node then runs
 * the blob instead of its usual command line.
 */
export const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

/** The name of the resource (the ELF note, Mach-O section or PE resource) holding the blob. */
export const SEA_RESOURCE = 'NODE_SEA_BLOB';

/** The checksum file's extension: it sits beside the binary, `sha256sum -c` reads it. */
export const CHECKSUM_EXTENSION = '.sha256';

/**
 * The binary's file name: the command, its version and the platform it runs on, as Node names them
 * (`company-data-mock-0.2.0-linux-x64`, `…-darwin-arm64`, `…-win32-x64.exe`).
 *
 * @param {string} version - the mock server's version.
 * @param {NodeJS.Platform} [platform]
 * @param {string} [arch]
 * @returns {string}
 * @example
 * artefactName('0.2.0', 'linux', 'x64'); // 'company-data-mock-0.2.0-linux-x64'
 */
export function artefactName(version, platform = process.platform, arch = process.arch) {
  return `${COMMAND}-${version}-${platform}-${arch}${platform === 'win32' ? '.exe' : ''}`;
}

/**
 * Where the build writes the binary of `version` for this platform, and its checksum file.
 *
 * @param {string} dir - the folder: `<root>/release-artefacts` for a release.
 * @param {string} version
 * @returns {{ binary: string, checksum: string }}
 */
export function artefactPaths(dir, version) {
  const binary = path.join(dir, artefactName(version));
  return { binary, checksum: `${binary}${CHECKSUM_EXTENSION}` };
}
