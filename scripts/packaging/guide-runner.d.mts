// Types for guide-runner.mjs, so its unit tests are type-checked with the rest of the repository.
import type { SnippetPlan } from './guide-snippets.mjs';

export function runGuides(options: {
  plan: SnippetPlan;
  home: string;
  cloneDir: string;
  env: Record<string, string | undefined>;
  sessionDir: string;
}): Promise<{ lines: string[]; projectDir: string }>;

export function readerEnv(
  home: string,
  callerEnv: Record<string, string | undefined>,
): Promise<Record<string, string | undefined>>;
