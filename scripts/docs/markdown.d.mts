// Types for markdown.mjs, so the unit tests that use it are type-checked with the rest of the repository.

/** A fenced code block of a markdown document. */
export interface CodeBlock {
  lang: string;
  /** The words of the fence after the language. */
  marks: string[];
  code: string;
  /** The 1-based line of the opening fence. */
  line: number;
  /** The name the text before the block saves it as ("Save this as `x.ts`:"), if any. */
  fileName: string | undefined;
}

export function codeBlocks(text: string): CodeBlock[];
export function shellCommands(block: { code: string }): string[];
export function shellCommandLines(block: { code: string; line: number }): { command: string; line: number }[];
export function frontMatter(text: string): Record<string, string>;
