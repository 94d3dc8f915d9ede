// The guides' shell blocks marked `with-mock-binary` (scripts/packaging/guide-snippets.mjs), run as their
// reader runs them: in the folder of the tests, where the mock binary was downloaded (or copied from a build)
// with its checksum file, beside the files the guide gives (the test files of another language), with the
// system's programs the commands start but no node, npm or npx: the PATH is a folder of links to exactly those
// programs, found where Debian installs them. The guide gives its files in that folder (`mock-tests/conftest.py`),
// so that in the project of Getting started they stay apart from its other tests; here the folder is the one
// the binary was copied into, and the files go into it by their names in it.
// A block also marked `if-installed` runs only where its program is installed (Go); missing, it is skipped and
// the lines say so. Any other missing program fails: `npm test` installs it first (scripts/system-packages.mjs).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { shellCommandLines } from '../docs/markdown.mjs';
import { findProgram } from '../system-packages.mjs';

/** Where the commands' programs are looked for: Debian's folders, not the caller's PATH. */
const SYSTEM_DIRS = ['/usr/bin', '/bin'];
/** Programs a reader without Node does not have. */
const NODE_PROGRAMS = new Set(['node', 'npm', 'npx', 'corepack']);
const COMMAND_TIMEOUT_MS = 90_000;
/**
 * The rest of the commands' environment. `CGO_ENABLED=0`: Go before 1.20 (Debian 12's is 1.19) builds its
 * `net` package with the C compiler, which the PATH here does not hold; the test files use none.
 */
const READER_ENV = { CGO_ENABLED: '0' };

/**
 * @typedef {object} BinaryCommand
 * @property {string} where - `<guide>:<line>`.
 * @property {string} command
 * @property {string} program - its first word.
 * @property {boolean} ifInstalled
 */

/**
 * The files and commands of the guides that have `with-mock-binary` blocks: every file such a guide gives
 * (its test files), by its name in the tests' folder, and the marked blocks' commands in order.
 *
 * @param {readonly import('../docs/guides.mjs').Guide[]} guides
 * @returns {{ folder: string, files: Map<string, string>, commands: BinaryCommand[] }} `folder` is the tests'
 *   folder the guide names (`mock-tests`; empty when it gives its files without one).
 * @throws {Error} for a guide whose files are not all in one folder: the binary and the commands are in one.
 */
export function mockBinaryPlan(guides) {
  /** @type {Map<string, string>} */
  const files = new Map();
  /** @type {BinaryCommand[]} */
  const commands = [];
  let folder = '';
  for (const guide of guides) {
    const marked = guide.blocks.filter(
      (block) => block.lang === 'sh' && block.marks.includes('with-mock-binary'),
    );
    if (marked.length === 0) continue;
    const given = guide.blocks.flatMap((block) => (block.fileName ? [block] : []));
    const folders = new Set(given.map((block) => path.posix.dirname(block.fileName ?? '')));
    if (folders.size > 1)
      throw new Error(
        `${guide.file}: its files are in ${[...folders].join(', ')}: give them all in the one folder of the tests, where the binary is`,
      );
    folder = [...folders][0] ?? '';
    if (folder === '.') folder = '';
    for (const block of given) files.set(path.posix.basename(block.fileName ?? ''), block.code);
    for (const block of marked) {
      for (const { command, line } of shellCommandLines(block)) {
        const program = command.split(/\s+/)[0] ?? '';
        const where = `${guide.file}:${line}`;
        if (NODE_PROGRAMS.has(program))
          throw new Error(`${where}: \`${command}\` needs Node, in a block for readers without it`);
        commands.push({ where, command, program, ifInstalled: block.marks.includes('if-installed') });
      }
    }
  }
  return { folder, files, commands };
}

/**
 * Saves the plan's files in `dir` (where the binary and its checksum file are) and runs its commands there, one
 * after another, each through `/bin/sh -c`, with `HOME` set to `dir` and `PATH` to `<programsDir>`, which gets a
 * link to each program the commands start.
 *
 * @param {ReturnType<typeof mockBinaryPlan>} plan
 * @param {string} dir
 * @param {string} programsDir - an empty folder that is not `dir`.
 * @returns {Promise<string[]>} one line per command: its last line of output, or why it was skipped.
 * @throws {Error} naming the guide and line of the first command that fails or whose program is missing.
 */
export async function runMockBinaryBlocks({ files, commands }, dir, programsDir) {
  for (const [name, content] of files) await writeFile(path.join(dir, name), content);
  await mkdir(programsDir, { recursive: true });
  const systemPath = { PATH: SYSTEM_DIRS.join(path.delimiter) };
  const linked = new Set();
  const lines = [];
  for (const { where, command, program, ifInstalled } of commands) {
    // A path (`./company-data-mock`) runs as it is; a name is one of the system's programs.
    const found = program.includes('/') ? program : findProgram(program, systemPath);
    if (found === undefined) {
      if (!ifInstalled)
        throw new Error(`${where}: \`${command}\`: no ${program} in ${SYSTEM_DIRS.join(' or ')}`);
      lines.push(`SKIPPED ${where} \`${command}\`: ${program} is not installed here`);
      continue;
    }
    if (!program.includes('/') && !linked.has(program)) {
      await symlink(found, path.join(programsDir, program));
      linked.add(program);
    }
    const output = await runShell(
      command,
      { cwd: dir, env: { ...READER_ENV, PATH: programsDir, HOME: dir } },
      where,
    );
    lines.push(`${where} \`${command}\`: ${output.trim().split('\n').at(-1) || 'exit code 0'}`);
  }
  return lines;
}

/**
 * @param {string} command
 * @param {{ cwd: string, env: NodeJS.ProcessEnv }} options
 * @param {string} where
 * @returns {Promise<string>} its output, stdout and stderr as they came.
 */
async function runShell(command, { cwd, env }, where) {
  const child = spawn('/bin/sh', ['-c', command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  for (const stream of [child.stdout, child.stderr])
    stream.setEncoding('utf8').on('data', (text) => {
      output += text;
    });
  const timer = setTimeout(() => child.kill('SIGKILL'), COMMAND_TIMEOUT_MS);
  const [code, signal] = await once(child, 'close');
  clearTimeout(timer);
  if (code !== 0)
    throw new Error(
      `${where}: \`${command}\` ${signal ? `was killed by ${signal}` : `exited with code ${code}`}\n${output.trim()}`,
    );
  return output;
}
