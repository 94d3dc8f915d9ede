// Types for tarball-rules.mjs, so its unit test is type-checked with the rest of the repository.

/** A shipped file that users do not need, with the reason. */
export interface OffendingFile {
  path: string;
  reason: string;
}

/** The outcome of checking one tarball's file list. */
export interface TarballCheck {
  offending: OffendingFile[];
  missing: string[];
}

export function checkTarballFiles(
  files: readonly string[],
  options?: { extraFiles?: readonly string[] },
): TarballCheck;
