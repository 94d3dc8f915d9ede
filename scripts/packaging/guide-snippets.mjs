// Every guide's snippets, run the way a newcomer runs them: in the order the README lists the guides, in the
// one project of Getting started, against one mock server started once (so a guide meets what the guides
// before it left behind, as a reader does). Each file is saved under the name the guide gives it; every other
// `ts` snippet is put into a copy of its template (the file with the line "← paste the snippet here"); then
// come the commands the guides print (`npx tsx <file>`, `npx vitest run`, `npx tsc`), then each package
// README's quick start (its first `ts` block, saved as `readme-<package>.ts`).
//
// Printed output is checked where a snippet promises it: a line comment `// → text` says the snippet prints
// a line equal to `text` (as console.log writes it; `…` stands for any text). A snippet's promises must be
// met by its output lines in order.
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { mockEnv, startMockCli } from './mock-cli.mjs';
import { cleanEnv, run } from './process.mjs';

const TEMPLATE_MARK = '// ← paste the snippet here';
const PRINTED_COMMAND = /\bnpx (tsx [\w.-]+\.ts|vitest run|tsc)\b/g;
const RUN_TIMEOUT_MS = 90_000;

/**
 * Reads what to write and what to run out of the guides.
 *
 * @returns {{ files: Map<string, string>, typecheck: boolean, guides: { file: string, runs: { line: number,
 *   args: string[] }[] }[] }} the project's files by name, whether a guide prints `npx tsc`, and each guide's
 *   runs in the order the guide gives them.
 */
export function snippetPlan(guides, readmes = []) {
  const files = new Map();
  const templates = new Map();
  const addFile = (name, content, where) => {
    if (files.has(name) && files.get(name) !== content)
      throw new Error(`${where}: another guide gives a different ${name}`);
    files.set(name, content);
  };
  let defaultTemplate;
  let typecheck = false;
  const plans = guides.map((guide) => {
    const runs = [];
    let template = defaultTemplate;
    for (const block of guide.blocks) {
      const where = `${guide.file}:${block.line}`;
      if (block.fileName) {
        addFile(block.fileName, block.code, where);
        if (block.code.includes(TEMPLATE_MARK)) {
          templates.set(block.fileName, block.code);
          template = block.fileName;
          defaultTemplate ??= template;
        }
      } else if (block.lang === 'ts') {
        if (!template) throw new Error(`${where}: a snippet without a file name, but no template before it`);
        const name = `${path.basename(template, '.ts')}-${guide.name}-${block.line}.ts`;
        addFile(name, templates.get(template).replace(TEMPLATE_MARK, block.code.trimEnd()), where);
        runs.push({ line: block.line, args: ['npx', 'tsx', name], promises: promisedLines(block.code) });
      }
    }
    for (const match of guide.text.matchAll(PRINTED_COMMAND)) {
      const args = match[0].split(' ');
      if (args[1] === 'tsc') typecheck = true;
      else if (!templates.has(args[2]) && !runs.some((known) => known.args.join(' ') === match[0])) {
        const promises = args[1] === 'tsx' ? promisedLines(files.get(args[2]) ?? '') : [];
        runs.push({ line: guide.text.slice(0, match.index).split('\n').length, args, promises });
      }
    }
    return { file: guide.file, runs: runs.sort((a, b) => a.line - b.line) };
  });
  for (const readme of readmes) {
    const name = `readme-${readme.name}.ts`;
    addFile(name, readme.code, `${readme.file}:${readme.line}`);
    plans.push({
      file: readme.file,
      runs: [{ line: readme.line, args: ['npx', 'tsx', name], promises: promisedLines(readme.code) }],
    });
  }
  assertEveryScriptRuns(files, templates, plans);
  return { files, typecheck, guides: plans };
}

/** A script the guides give but never run would be a snippet nobody checks. */
function assertEveryScriptRuns(files, templates, plans) {
  const ran = new Set(plans.flatMap((plan) => plan.runs.map((step) => step.args[2])));
  const imported = [...files.values()].join('\n');
  for (const name of files.keys()) {
    if (!name.endsWith('.ts') || name.endsWith('.test.ts') || templates.has(name) || ran.has(name)) continue;
    if (imported.includes(`'./${name.replace(/\.ts$/, '.js')}'`)) continue;
    throw new Error(`the guides give ${name} but print no \`npx tsx ${name}\` that runs it`);
  }
  for (const { runs } of plans) {
    for (const { args } of runs) {
      if (args[1] === 'tsx' && !files.has(args[2]))
        throw new Error(`\`${args.join(' ')}\`: no guide gives ${args[2]}`);
    }
  }
}

/**
 * Writes the files into `projectDir`, type-checks them if a guide says how, then runs the guides' commands in
 * order against one mock server. Every command must exit 0 within the time limit and print what its
 * `// → ` comments promise.
 *
 * @returns {Promise<string[]>} one line per guide with what ran, and one for the type check.
 */
export async function runGuides(projectDir, plan) {
  for (const [name, content] of plan.files) await writeFile(path.join(projectDir, name), content);
  const lines = [];
  if (plan.typecheck) {
    await runStep(projectDir, ['npx', 'tsc'], cleanEnv({ NODE_OPTIONS: '' }), 'the type check');
    lines.push(`npx tsc: ${plan.files.size} files type-check`);
  }
  const mock = await startMockCli(projectDir, cleanEnv({ NODE_OPTIONS: '' }));
  const env = cleanEnv({ NODE_OPTIONS: '', NO_COLOR: '1', ...mockEnv(mock.summary) });
  try {
    for (const guide of plan.guides.filter(({ runs }) => runs.length > 0))
      lines.push(await runGuide(projectDir, guide, env));
  } finally {
    await mock.stop();
  }
  return lines;
}

async function runGuide(projectDir, guide, env) {
  const started = performance.now();
  const done = [];
  let promised = 0;
  for (const { line, args, promises } of guide.runs) {
    const where = `${guide.file}:${line}`;
    const { stdout } = await runStep(projectDir, args, env, where);
    const unmet = unmetPromise(promises, stdout);
    if (unmet) throw new Error(`${where}: \`${args.join(' ')}\` ${unmet}`);
    promised += promises.length;
    const tests = /Tests\s+(\d+) passed/.exec(stdout)?.[1];
    done.push(tests ? `${args.join(' ')} (${tests} tests passed)` : args.slice(2).join(' '));
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  return `${guide.file}: ${done.length} runs, ${promised} promised lines printed, in ${seconds} s: ${done.join(', ')}`;
}

const PROMISE = /\/\/ → (.+)$/;

/** The lines a snippet promises to print: the text of each `// → text` comment, in order. */
export function promisedLines(code) {
  return code
    .split('\n')
    .map((line) => PROMISE.exec(line)?.[1]?.trim())
    .filter(Boolean);
}

/**
 * Why the output breaks a promise: the first promised line not found among the output lines after the one
 * that met the promise before it. `…` in a promise stands for any text.
 *
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

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The guides in the order the README lists them (its "Guides" section links each one); a guide the README
 * does not list is an error, since a newcomer would never meet it.
 */
export function inReadmeOrder(guides, readmeText) {
  const section = /^## Guides\n([\s\S]*?)(?=^## )/m.exec(readmeText)?.[1] ?? '';
  const order = [...section.matchAll(/\]\((docs\/[\w.-]+\.md)\)/g)].map((match) => match[1]);
  const missing = guides.filter((guide) => !order.includes(guide.file)).map((guide) => guide.file);
  if (missing.length > 0) throw new Error(`the README's Guides section does not list ${missing.join(', ')}`);
  return [...guides].sort((a, b) => order.indexOf(a.file) - order.indexOf(b.file));
}

/** Each package README's quick start: its first `ts` block, to run as written. */
export function readmeQuickStarts(root, packageDirs, codeBlocks) {
  return packageDirs.flatMap((dir) => {
    const file = path.join('packages', dir, 'README.md');
    const block = codeBlocks(readFileSync(path.join(root, file), 'utf8')).find((b) => b.lang === 'ts');
    return block ? [{ file, name: dir, code: block.code, line: block.line }] : [];
  });
}

async function runStep(projectDir, [command, ...args], env, where) {
  try {
    return await run(command, args, { cwd: projectDir, env, timeoutMs: RUN_TIMEOUT_MS });
  } catch (error) {
    throw new Error(`${where}: ${error.message}`);
  }
}
