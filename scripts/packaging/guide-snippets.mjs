// What following the guides means, step by step: the guides in the order the README lists them, each read
// from top to bottom, as a newcomer does, in the one project of Getting started and one shell. This file
// turns them into that sequence of steps; scripts/packaging/guide-runner.mjs takes the steps.
//
// - A file a guide gives ("Save this as `first-calls.ts`:") is saved where the reader is, when the guide gives it.
// - A snippet that uses `client.` must be where a `client` is: a whole file declares its own, a snippet goes
//   into a template that declares one (or declares it itself). Otherwise the reader meets
//   `ReferenceError: client is not defined`, so the plan refuses it, naming the file or the template.
// - Every other `ts` snippet is put into a copy of its template (the file with the line "← paste the
//   snippet here") and run with `npx tsx`, where the guide gives it; snippets that follow each other with
//   no other command between run in one `npx tsx`, one module after another (scripts/packaging/snippet-batch.mjs).
// - Every command of a `sh` block runs as written, in the shell. Words after `sh` in the fence mark a block
//   (renderers show only the language; see MARKS).
// - A command the text prints outside the blocks (`npx tsx <file>`, `npx vitest run`, `npx tsc`) runs where
//   the text prints it, unless a shell block of the guide runs it.
// - A `python` block the text gives no file name is a snippet the reader pastes into `python3`, one prompt
//   per guide kept open in a terminal of its own, where the guide gives it: the snippets after it use what it
//   defined (scripts/packaging/python-session.mjs).
// - Then each package README's quick start (its first `ts` block, saved as `readme-<package>.ts`).
//
// Printed output is checked where a snippet promises it: a line comment `// → text` (`# → text` in Python)
// says the snippet prints a line equal to `text` (as console.log or print writes it; `…` stands for any
// text). A snippet's promises must be met by its output lines in order.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { shellCommandLines } from '../docs/markdown.mjs';

/** @typedef {import('../docs/guides.mjs').Guide} Guide */
/** @typedef {import('../docs/markdown.mjs').CodeBlock} CodeBlock */

/**
 * A file the reader saves where they are.
 *
 * @typedef {{ line: number, save: string, content: string, command?: undefined }} SaveStep
 */

/**
 * A command the reader runs.
 *
 * @typedef {object} CommandStep
 * @property {number} line
 * @property {string} command
 * @property {'run' | 'keeps-running' | 'until-ctrl-c'} mode
 * @property {boolean} inClone
 * @property {string[]} promises - the lines its output must show, in order.
 * @property {string} [doneBefore] - why it is not run (`npm test` ran it before).
 * @property {true} [pytest] - a pytest run (`sh with-pytest`): it needs pytest and pytest-xdist, and its
 *   output is read (scripts/packaging/pytest-run.mjs).
 * @property {true} [snippet] - a snippet put into its template: the runner may run it in one process with
 *   the guide's snippets next to it (scripts/packaging/snippet-batch.mjs).
 */

/**
 * A Python snippet the reader pastes into the guide's `python3` prompt.
 *
 * @typedef {{ line: number, python: string, promises: string[], command?: undefined, doneBefore?: undefined,
 *   inClone?: undefined, snippet?: undefined }} PythonStep
 */

/** @typedef {SaveStep | CommandStep | PythonStep} Step */

/**
 * Every file the guides give by name, whether a guide prints `npx tsc` (the check type-checks every file at
 * the end), and each guide's steps in the order of its text.
 *
 * @typedef {{ files: Map<string, string>, typecheck: boolean, guides: { file: string, steps: Step[] }[] }} SnippetPlan
 */

/**
 * A package README's quick start.
 *
 * @typedef {{ file: string, name: string, code: string, line: number }} QuickStart
 */

/**
 * The marks a shell block may carry after `sh`, and what each means to the reader and to the check.
 *
 * @type {Readonly<Record<string, string>>}
 */
export const MARKS = {
  'in-clone':
    'run in the clone of this repository, where the reader builds and packs the packages, then back where they were',
  'keeps-running':
    'each command starts a server that keeps running in a terminal of its own, for the rest of the guides; stopped at the end',
  'until-ctrl-c':
    'each command starts a server the reader tries and stops with Ctrl+C: started, awaited until ready, then sent Ctrl+C',
  'once-published':
    'a by-name install of our packages that works once they are on npm; not run here (the registry rehearsal runs it), the guide gives the tarball install beside it',
  'with-mock-binary':
    "run with the mock's single executable, not in the guides' shell: by check:packages, in a folder holding only the binary the release rehearsal built, its checksum file and the files the guide gives, with no node on the PATH (scripts/sea/guide-blocks.mjs)",
  'if-installed':
    'with with-mock-binary only: run where its program is installed, skipped (saying so) elsewhere; for a toolchain the test machines do not install, such as Go',
  'database-setup':
    "installs or starts a PostgreSQL on the reader's own machine (Debian's package, a container): not run, since the check gives the guides a PostgreSQL of its own as DATABASE_URL",
  'with-pytest':
    "a pytest run, in the guides' shell with Debian's pytest and pytest-xdist (`npm test` installs them); skipped loudly where they are missing (failed under CI); every test must pass and, with `-n N`, N workers each run some (scripts/packaging/pytest-run.mjs)",
};

/**
 * Commands the reader runs in the clone that `npm test` has already run on this checkout before the
 * packaging checks.
 *
 * @type {Readonly<Record<string, string>>}
 */
export const DONE_BEFORE = {
  'npm ci': 'the workspace is installed from the lockfile before `npm test`',
  'npm run build': '`npm test` builds before `check:packages`, and the `built` step checks the build',
};

const TEMPLATE_MARK = '// ← paste the snippet here';
/** `client.` used, not as a property of something else (`this.client.`). */
const USES_CLIENT = /(?<![.\w$])client\./;
/** `client` declared: a variable, a destructured name, or a parameter. */
const DECLARES_CLIENT = /\b(?:const|let|var)\s+(?:\{[^}]*\b)?client\b|\([^)]*\bclient\s*[:,)}]/;

/**
 * Why code of a guide would fail with `ReferenceError: client is not defined`, or undefined when it would not.
 *
 * @param {string} code - a whole file, or a snippet with the template it goes into.
 * @param {string} name - how to name its place in the message.
 * @returns {string | undefined}
 */
export function missingClient(code, name) {
  if (!USES_CLIENT.test(code) || DECLARES_CLIENT.test(code)) return undefined;
  return `${name} uses \`client.\` but declares no \`client\`: give the whole file (its imports and \`const client = new CompanyData()\`), or say it goes into snippet.ts`;
}
const PRINTED_COMMAND = /\bnpx (tsx [\w.-]+\.ts|vitest run|tsc)\b/g;
const BY_NAME_INSTALL = /^npm (install|i|add)\b.*\s@company-data\//;

/**
 * Reads what to save and what to run out of the guides, in reading order.
 *
 * @param {readonly Guide[]} guides
 * @param {readonly QuickStart[]} [readmes]
 * @returns {SnippetPlan}
 */
export function snippetPlan(guides, readmes = []) {
  /** @type {Map<string, string>} */
  const files = new Map();
  /** @type {Map<string, string>} */
  const templates = new Map();
  /** @type {(name: string, content: string, where: string) => void} */
  const addFile = (name, content, where) => {
    if (files.has(name) && files.get(name) !== content)
      throw new Error(`${where}: another guide gives a different ${name}`);
    files.set(name, content);
  };
  /** @type {string | undefined} */
  let defaultTemplate;
  let typecheck = false;
  const plans = guides.map((guide) => {
    /** @type {Step[]} */
    const steps = [];
    const saved = new Set(files.keys());
    let template = defaultTemplate;
    const shellRuns = new Set();
    for (const block of guide.blocks) {
      const where = `${guide.file}:${block.line}`;
      if (block.fileName) {
        const missing = missingClient(block.code, block.fileName);
        if (missing) throw new Error(`${where}: ${missing}`);
        addFile(block.fileName, block.code, where);
        steps.push({ line: block.line, save: block.fileName, content: block.code });
        if (block.code.includes(TEMPLATE_MARK)) {
          templates.set(block.fileName, block.code);
          template = block.fileName;
          defaultTemplate ??= template;
        }
      } else if (block.lang === 'ts') {
        if (!template) throw new Error(`${where}: a snippet without a file name, but no template before it`);
        const name = `${path.basename(template, '.ts')}-${guide.name}-${block.line}.ts`;
        const content = (templates.get(template) ?? '').replace(TEMPLATE_MARK, block.code.trimEnd());
        const missing = missingClient(content, `a snippet for ${template}`);
        if (missing) throw new Error(`${where}: ${missing}`);
        addFile(name, content, where);
        steps.push({ line: block.line, save: name, content });
        steps.push(commandStep(block.line, `npx tsx ${name}`, promisedLines(block.code), { snippet: true }));
      } else if (block.lang === 'python' && !quotesFile(guide.text, block.line)) {
        steps.push({ line: block.line, python: block.code, promises: promisedLines(block.code, '#') });
      } else if (block.lang === 'sh') {
        for (const step of shellSteps(guide, block, files)) {
          shellRuns.add(step.command);
          steps.push(step);
        }
      }
    }
    for (const match of proseMatches(guide)) {
      const command = match.text;
      if (command === 'npx tsc') typecheck = true;
      const file = command.split(' ')[2] ?? '';
      if (shellRuns.has(command) || templates.has(file) || steps.some((step) => step.command === command))
        continue;
      const promises = command.startsWith('npx tsx ') ? promisedLines(files.get(file) ?? '') : [];
      steps.push(commandStep(match.line, command, promises));
    }
    steps.sort((a, b) => a.line - b.line || ('save' in a ? -1 : 0) - ('save' in b ? -1 : 0));
    assertSavedBeforeRun(guide.file, steps, saved);
    return { file: guide.file, steps };
  });
  for (const readme of readmes) {
    const name = `readme-${readme.name}.ts`;
    addFile(name, readme.code, `${readme.file}:${readme.line}`);
    plans.push({
      file: readme.file,
      steps: [
        { line: readme.line, save: name, content: readme.code },
        commandStep(readme.line, `npx tsx ${name}`, promisedLines(readme.code)),
      ],
    });
  }
  assertEveryScriptRuns(files, templates, plans);
  return { files, typecheck, guides: plans };
}

/**
 * @param {number} line
 * @param {string} command
 * @param {string[]} promises
 * @param {Partial<CommandStep>} [extra]
 * @returns {CommandStep}
 */
const commandStep = (line, command, promises, extra = {}) => ({
  line,
  command,
  mode: 'run',
  inClone: false,
  promises,
  ...extra,
});

/**
 * Whether the text introduces the block at `line` as a file of the repository (the line before it ends with
 * a path in backticks and a colon, without "Save this as"): shown, not pasted.
 *
 * @param {string} text
 * @param {number} line - the block's opening fence, 1-based.
 */
function quotesFile(text, line) {
  const before = text
    .split('\n')
    .slice(0, line - 1)
    .join('\n')
    .trimEnd();
  return /`[^`\n]+`:$/.test(before.slice(before.lastIndexOf('\n') + 1));
}

/**
 * The commands of a `sh` block as steps, after checking its marks.
 *
 * @param {Guide} guide
 * @param {CodeBlock} block
 * @param {ReadonlyMap<string, string>} files
 * @returns {CommandStep[]}
 */
function shellSteps(guide, block, files) {
  const where = `${guide.file}:${block.line}`;
  for (const mark of block.marks) {
    if (!(mark in MARKS))
      throw new Error(
        `${where}: \`sh ${mark}\` is not a mark the check knows (${Object.keys(MARKS).join(', ')}); see scripts/packaging/guide-snippets.mjs`,
      );
  }
  const commands = shellCommandLines(block);
  if (block.marks.includes('if-installed') && !block.marks.includes('with-mock-binary'))
    throw new Error(`${where}: \`sh if-installed\` goes only with with-mock-binary`);
  if (block.marks.includes('with-mock-binary')) return []; // scripts/sea/guide-blocks.mjs runs them
  if (block.marks.includes('database-setup')) return [];
  if (block.marks.includes('once-published')) {
    const other = commands.find(({ command }) => !BY_NAME_INSTALL.test(command));
    if (other)
      throw new Error(
        `${guide.file}:${other.line}: \`${other.command}\` is in a block marked once-published, which may hold only by-name installs of @company-data packages`,
      );
    return [];
  }
  const mode = /** @type {CommandStep['mode']} */ (
    block.marks.find((mark) => mark === 'keeps-running' || mark === 'until-ctrl-c') ?? 'run'
  );
  const inClone = block.marks.includes('in-clone');
  const pytest = block.marks.includes('with-pytest');
  return commands.map(({ command, line }) => {
    const tsx = /^npx tsx ([\w.-]+\.ts)$/.exec(command)?.[1];
    const promises = tsx ? promisedLines(files.get(tsx) ?? '') : [];
    const doneBefore = inClone ? DONE_BEFORE[command] : undefined;
    return commandStep(line, command, promises, {
      mode,
      inClone,
      ...(doneBefore ? { doneBefore } : {}),
      ...(pytest ? { pytest: true } : {}),
    });
  });
}

/**
 * The commands the text prints outside its code blocks, with their lines.
 *
 * @param {Guide} guide
 */
function proseMatches(guide) {
  const blockLines = guide.blocks.map((block) => [block.line, block.line + block.code.split('\n').length]);
  const inBlock = (/** @type {number} */ line) =>
    blockLines.some(([first = 0, last = 0]) => line >= first && line <= last);
  /** @type {{ text: string, line: number }[]} */
  const found = [];
  for (const match of guide.text.matchAll(PRINTED_COMMAND)) {
    const line = guide.text.slice(0, match.index).split('\n').length;
    if (!inBlock(line) && !found.some((known) => known.text === match[0]))
      found.push({ text: match[0], line });
  }
  return found;
}

/**
 * A guide that runs a file before it gives it would fail for its reader.
 *
 * @param {string} file
 * @param {readonly Step[]} steps
 * @param {Iterable<string>} savedBefore
 */
function assertSavedBeforeRun(file, steps, savedBefore) {
  const saved = new Set(savedBefore);
  for (const step of steps) {
    if ('save' in step) saved.add(step.save);
    const script = /^npx tsx ([\w.-]+\.ts)$/.exec(step.command ?? '')?.[1];
    if (script && !saved.has(script))
      throw new Error(
        `${file}:${step.line}: \`${step.command}\` runs ${script} before any guide has given it`,
      );
  }
}

/**
 * A script the guides give but never run would be a snippet nobody checks. A test file runs with
 * `npx vitest run`, and so does `vitest.config.ts`, which it reads, when a guide prints that command.
 *
 * @param {ReadonlyMap<string, string>} files
 * @param {ReadonlyMap<string, string>} templates
 * @param {readonly { steps: Step[] }[]} plans
 */
function assertEveryScriptRuns(files, templates, plans) {
  const commands = plans.flatMap((plan) => plan.steps.flatMap((step) => step.command ?? []));
  const ran = new Set(commands.flatMap((command) => /^npx tsx ([\w.-]+\.ts)$/.exec(command)?.[1] ?? []));
  const imported = [...files.values()].join('\n');
  const vitestRuns = commands.some((command) => command.startsWith('npx vitest run'));
  for (const name of files.keys()) {
    if (!name.endsWith('.ts') || name.endsWith('.test.ts') || templates.has(name) || ran.has(name)) continue;
    if (name === 'vitest.config.ts' && vitestRuns) continue;
    if (imported.includes(`'./${name.replace(/\.ts$/, '.js')}'`)) continue;
    throw new Error(`the guides give ${name} but print no \`npx tsx ${name}\` that runs it`);
  }
  for (const name of ran) {
    if (!files.has(name)) throw new Error(`\`npx tsx ${name}\`: no guide gives ${name}`);
  }
}

/**
 * The lines a snippet promises to print: the text of each `// → text` comment (`# → text` in Python), in
 * order.
 *
 * @param {string} code
 * @param {'//' | '#'} [comment] - how its language starts a line comment.
 * @returns {string[]}
 */
export function promisedLines(code, comment = '//') {
  const promise = new RegExp(`${comment.replaceAll('/', '\\/')} → (.+)$`);
  return code.split('\n').flatMap((line) => promise.exec(line)?.[1]?.trim() || []);
}

/**
 * Why the output breaks a promise: the first promised line not found among the output lines after the one
 * that met the promise before it. `…` in a promise stands for any text.
 *
 * @param {readonly string[]} promises
 * @param {string} stdout
 * @returns {string | undefined} undefined when every promise is met.
 */
export function unmetPromise(promises, stdout) {
  const lines = stdout.split('\n').map((line) => line.trimEnd());
  let from = 0;
  for (const promise of promises) {
    const pattern = new RegExp(`^${promise.split('…').map(escapeRegExp).join('.*')}$`);
    const found = lines.findIndex((line, index) => index >= from && pattern.test(line));
    if (found < 0)
      return `promised the line "${promise}" but printed:\n${lines.slice(from).join('\n').trim() || '(nothing)'}`;
    from = found + 1;
  }
  return undefined;
}

const escapeRegExp = (/** @type {string} */ text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The guides in the order the README lists them (its "Guides" section links each one); a guide the README
 * does not list is an error, since a newcomer would never meet it.
 *
 * @template {{ file: string }} T
 * @param {readonly T[]} guides
 * @param {string} readmeText
 * @returns {T[]}
 */
export function inReadmeOrder(guides, readmeText) {
  const section = /^## Guides\n([\s\S]*?)(?=^## )/m.exec(readmeText)?.[1] ?? '';
  const order = [...section.matchAll(/\]\((docs\/[\w.-]+\.md)\)/g)].map((match) => match[1]);
  const missing = guides.filter((guide) => !order.includes(guide.file)).map((guide) => guide.file);
  if (missing.length > 0) throw new Error(`the README's Guides section does not list ${missing.join(', ')}`);
  return [...guides].sort((a, b) => order.indexOf(a.file) - order.indexOf(b.file));
}

/**
 * Each package README's quick start: its first `ts` block, to run as written.
 *
 * @param {string} root
 * @param {readonly string[]} packageDirs - folder names under packages/.
 * @param {(text: string) => CodeBlock[]} codeBlocks
 * @returns {QuickStart[]}
 */
export function readmeQuickStarts(root, packageDirs, codeBlocks) {
  return packageDirs.flatMap((dir) => {
    const file = path.join('packages', dir, 'README.md');
    const block = codeBlocks(readFileSync(path.join(root, file), 'utf8')).find((b) => b.lang === 'ts');
    return block ? [{ file, name: dir, code: block.code, line: block.line }] : [];
  });
}
