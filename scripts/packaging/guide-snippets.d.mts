// Types for guide-snippets.mjs, so its unit tests are type-checked with the rest of the repository.
import type { CodeBlock } from '../docs/markdown.mjs';

/** A guide as scripts/docs/guides.mjs reads it. */
export interface Guide {
  file: string;
  name: string;
  text: string;
  blocks: CodeBlock[];
}

/** A file the reader saves where they are. */
export interface SaveStep {
  line: number;
  save: string;
  content: string;
}

/** A command the reader runs. */
export interface CommandStep {
  line: number;
  command: string;
  mode: 'run' | 'keeps-running' | 'until-ctrl-c';
  inClone: boolean;
  promises: string[];
  doneBefore?: string;
}

export type Step = SaveStep | CommandStep;

export interface SnippetPlan {
  files: Map<string, string>;
  typecheck: boolean;
  guides: { file: string; steps: Step[] }[];
}

/** A package README's quick start. */
export interface QuickStart {
  file: string;
  name: string;
  code: string;
  line: number;
}

export const MARKS: Record<string, string>;
export const DONE_BEFORE: Record<string, string>;
export function snippetPlan(guides: readonly Guide[], readmes?: readonly QuickStart[]): SnippetPlan;
export function promisedLines(code: string): string[];
export function unmetPromise(promises: readonly string[], stdout: string): string | undefined;
export function inReadmeOrder<T extends { file: string }>(guides: readonly T[], readmeText: string): T[];
export function readmeQuickStarts(
  root: string,
  packageDirs: readonly string[],
  codeBlocks: (text: string) => CodeBlock[],
): QuickStart[];
