// Snippets of a guide that follow each other run in one process. A reader pastes each snippet into its
// template and runs it with `npx tsx`; the check puts each into a file of its own, as before, and runs a
// row of them with one `npx tsx` of a small file that imports them one after another. Each snippet is still
// its own module, run whole, to its end, in the guide's order, and its promised lines are read from what it
// alone printed; what the row saves is the start of npm, tsx and the SDK for every snippet but the first
// (about a second of CPU each).
//
// What one process cannot tell apart is said here and guarded: a snippet that fails (throws, or sets
// `process.exitCode` as a reader's script does) stops the row, named by its line; a snippet that ends the
// process early (`process.exit()`) leaves the snippets after it unrun, and the row says which.

/** The line the row prints before each snippet, with the snippet's file name after it. */
export const SNIPPET_MARK = '@@guide-snippet';

/**
 * @typedef {import('./guide-snippets.mjs').CommandStep} CommandStep
 * @typedef {import('./process.mjs').RunResult} RunResult
 */

/** The file a snippet step runs (`npx tsx <file>`). */
export const snippetFile = (/** @type {CommandStep} */ step) => step.command.replace(/^npx tsx /, '');

/**
 * The file that runs `batch` in one process: `.mjs`, so that the project's type check (`npx tsc`) leaves it
 * alone, as it is the check's own, not a guide's.
 *
 * @param {string} guideName
 * @param {readonly CommandStep[]} batch - two or more snippet steps, in the guide's order.
 * @returns {{ name: string, content: string }}
 */
export function batchFile(guideName, batch) {
  const files = batch.map(snippetFile);
  const name = `check-snippets-${guideName}-${batch[0]?.line}.mjs`;
  const content = [
    `// Written by the guides' check, not by a guide: the snippets ${files.join(', ')}, one after another in one`,
    '// process. A snippet that fails as its reader would see it (an error, a non-zero exit code) stops the row.',
    `for (const file of ${JSON.stringify(files)}) {`,
    `  console.log('${SNIPPET_MARK} ' + file);`,
    "  await import('./' + file);",
    '  if (process.exitCode) break;',
    '}',
    '',
  ].join('\n');
  return { name, content };
}

/**
 * What each snippet of the row printed on stdout: the lines after its mark, up to the next one, each ending
 * in a newline.
 *
 * @param {string} stdout
 * @returns {Map<string, string>} by file name; a snippet that never started is missing.
 */
export function outputBySnippet(stdout) {
  /** @type {Map<string, string[]>} */
  const sections = new Map();
  /** @type {string[] | undefined} */
  let current;
  const lines = stdout.split('\n');
  if (lines.at(-1) === '') lines.pop();
  for (const line of lines) {
    if (line.startsWith(`${SNIPPET_MARK} `)) {
      current = [];
      sections.set(line.slice(SNIPPET_MARK.length + 1), current);
    } else current?.push(line);
  }
  return new Map([...sections].map(([file, printed]) => [file, printed.map((line) => `${line}\n`).join('')]));
}

/**
 * The snippet a row's run stopped at, and why, or undefined when every snippet ran to its end.
 *
 * @param {readonly CommandStep[]} batch
 * @param {Pick<RunResult, 'code' | 'stdout'>} result
 * @returns {{ step: CommandStep, why: string } | undefined}
 */
export function batchFailure(batch, { code, stdout }) {
  const started = [...outputBySnippet(stdout).keys()];
  const last = batch.find((step) => snippetFile(step) === started.at(-1));
  if (code !== 0) {
    return last
      ? { step: last, why: `exited with code ${code}` }
      : { step: /** @type {CommandStep} */ (batch[0]), why: `exited with code ${code} before it started` };
  }
  const unrun = batch.filter((step) => !started.includes(snippetFile(step)));
  if (unrun.length > 0 && last) {
    return {
      step: last,
      why: `ended the process before ${unrun.map(snippetFile).join(', ')} ran (run alone, each would have)`,
    };
  }
  return undefined;
}
