// Every guide's snippets, run the way a reader runs them in the project of Getting started: each file saved
// under the name the guide gives it; every other `ts` snippet put into a copy of its template (the file with
// the line "← paste the snippet here"); then the commands the guides print (`npx tsx <file>`, `npx vitest
// run`, `npx tsc`), each guide against its own started mock server.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { mockEnv, startMockCli } from './mock-cli.mjs';
import { cleanEnv, inPairs, run } from './process.mjs';

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
export function snippetPlan(guides) {
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
        runs.push({ line: block.line, args: ['npx', 'tsx', name] });
      }
    }
    for (const match of guide.text.matchAll(PRINTED_COMMAND)) {
      const args = match[0].split(' ');
      if (args[1] === 'tsc') typecheck = true;
      else if (!templates.has(args[2]) && !runs.some((known) => known.args.join(' ') === match[0])) {
        runs.push({ line: guide.text.slice(0, match.index).split('\n').length, args });
      }
    }
    return { file: guide.file, runs: runs.sort((a, b) => a.line - b.line) };
  });
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
 * Writes the files into `projectDir`, type-checks them if a guide says how, then runs each guide's commands
 * against its own mock server (two guides at a time). Every command must exit 0 within the time limit.
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
  const results = await inPairs(
    plan.guides.filter((guide) => guide.runs.length > 0),
    (guide) => runGuide(projectDir, guide),
  );
  return [...lines, ...results];
}

async function runGuide(projectDir, guide) {
  const started = performance.now();
  const mock = await startMockCli(projectDir, cleanEnv({ NODE_OPTIONS: '' }));
  const env = cleanEnv({ NODE_OPTIONS: '', NO_COLOR: '1', ...mockEnv(mock.summary) });
  const done = [];
  try {
    for (const { line, args } of guide.runs) {
      const { stdout } = await runStep(projectDir, args, env, `${guide.file}:${line}`);
      const tests = /Tests\s+(\d+) passed/.exec(stdout)?.[1];
      done.push(tests ? `${args.join(' ')} (${tests} tests passed)` : args.slice(2).join(' '));
    }
  } finally {
    await mock.stop();
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  return `${guide.file}: ${done.length} runs in ${seconds} s: ${done.join(', ')}`;
}

async function runStep(projectDir, [command, ...args], env, where) {
  try {
    return await run(command, args, { cwd: projectDir, env, timeoutMs: RUN_TIMEOUT_MS });
  } catch (error) {
    throw new Error(`${where}: ${error.message}`);
  }
}
