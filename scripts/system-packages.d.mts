// Types for system-packages.mjs, so its unit test and the tests that import it are type-checked.

/** One program the tests need beyond npm. */
export interface SystemProgram {
  program: string;
  debianPackage: string;
  neededBy: string;
}

export type InstallRights = 'root' | 'sudo' | 'none';

export type Decision =
  | { action: 'none' }
  | { action: 'install'; packages: string[]; steps: string[][]; line: string }
  | { action: 'fail' | 'skip'; packages: string[]; line: string };

export const SYSTEM_PROGRAMS: readonly SystemProgram[];
export function installSteps(packages: readonly string[], options: { sudo: boolean }): string[][];
export function installHint(packages: readonly string[]): string;
export function decide(facts: { missing: readonly string[]; rights: InstallRights; ci: boolean }): Decision;
export function findProgram(program: string, env?: NodeJS.ProcessEnv): string | undefined;
export function installRights(env?: NodeJS.ProcessEnv): InstallRights;
export function isCI(env?: NodeJS.ProcessEnv): boolean;
export function programOrSkip(
  program: string,
  options?: { env?: NodeJS.ProcessEnv; log?: (line: string) => void },
): string | undefined;
