// Reads what the docs' checks need out of markdown: the fenced code blocks (with the file each one is saved
// as), the lines of shell blocks, and the front matter.

/**
 * A fenced code block of a markdown document.
 *
 * @typedef {object} CodeBlock
 * @property {string} lang
 * @property {string[]} marks - the words of the fence after the language (```sh keeps-running:
 *   `['keeps-running']`); renderers show only the language.
 * @property {string} code
 * @property {number} line - the 1-based line of the opening fence.
 * @property {string | undefined} fileName - the name the text before the block saves it as ("Save this as
 *   `x.ts`:", or with its folder, "Save this as `tests/conftest.py`:"), if any.
 */

/**
 * Every fenced code block that starts at the beginning of a line, in order.
 *
 * A block is a file when the line before it ends with its name in backticks and a colon, as in "Save this
 * as `first-calls.ts`:"; `fileName` is then that name. A name has an extension (`go.mod`): a word without one
 * is a variable, as in "With the same `ADMIN`, `JSON` and `MOCK`:". A name in a folder counts only after "as",
 * as in "Save this as `parallel-suite/conftest.py`:" (a path in backticks before a colon elsewhere names a
 * file of the repository, as the architecture page does).
 *
 * @param {string} text
 * @returns {CodeBlock[]}
 */
export function codeBlocks(text) {
  return [...text.matchAll(/^```(\S*)([^\n]*)\n([\s\S]*?)^```[ \t]*$/gm)].map((match) => {
    const before = text.slice(0, match.index);
    const previous = before.trimEnd();
    const lineBefore = previous.slice(previous.lastIndexOf('\n') + 1);
    return {
      lang: match[1] ?? '',
      marks: (match[2] ?? '').trim().split(/\s+/).filter(Boolean),
      code: match[3] ?? '',
      line: before.split('\n').length,
      fileName: (/`([\w-]*\.[\w.-]+)`:$/.exec(lineBefore) ??
        /\bas `((?:[\w.-]+\/)+[\w.-]+)`:$/.exec(lineBefore))?.[1],
    };
  });
}

/**
 * The commands of a shell block: one a line, without comments and blank lines.
 *
 * @param {{ code: string }} block
 * @returns {string[]}
 */
export function shellCommands(block) {
  return block.code
    .split('\n')
    .map((line) => line.replace(/(^|\s)#.*$/, '').trim())
    .filter(Boolean);
}

/**
 * The commands of a shell block with the line each starts on: a line ending in `\` continues on the next,
 * comments and blank lines are left out.
 *
 * @param {{ code: string, line: number }} block
 * @returns {{ command: string, line: number }[]} `line` is the 1-based line in the document.
 */
export function shellCommandLines(block) {
  /** @type {{ command: string, line: number }[]} */
  const commands = [];
  /** @type {{ command: string, line: number } | undefined} */
  let pending;
  for (const [index, raw] of block.code.split('\n').entries()) {
    const text = raw.replace(/(^|\s)#.*$/, '').trim();
    if (pending) {
      pending.command += `\n${text}`;
    } else if (text) {
      pending = { command: text, line: block.line + 1 + index };
    }
    if (pending && !pending.command.endsWith('\\')) {
      commands.push(pending);
      pending = undefined;
    }
  }
  if (pending) commands.push(pending);
  return commands;
}

/**
 * The `key: value` pairs of a document's YAML front matter (flat, as typedoc's documents use it).
 *
 * @param {string} text
 * @returns {Record<string, string>}
 */
export function frontMatter(text) {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(text);
  return Object.fromEntries(
    (match?.[1] ?? '')
      .split('\n')
      .map((line) => /^(\w+):\s*(.*)$/.exec(line))
      .filter((match) => match !== null)
      .map(([, key, value]) => [key, (value ?? '').trim()]),
  );
}
