// A row of a guide's snippets runs in one `tsx` process, each snippet its own module; the row's output is
// read snippet by snippet, and a snippet that fails, or ends the process early, is named by its line.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CommandStep } from './guide-snippets.mjs';
import { batchFailure, batchFile, outputBySnippet, SNIPPET_MARK } from './snippet-batch.mjs';

/** The tsx a reader's `npx tsx` runs in a project that has it installed. */
const TSX = path.resolve(import.meta.dirname, '..', '..', 'node_modules', '.bin', 'tsx');
const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const step = (line: number, file: string): CommandStep => ({
  line,
  command: `npx tsx ${file}`,
  mode: 'run',
  inClone: false,
  promises: [],
  snippet: true,
});

/** Saves the snippets and the row's file in a folder of their own and runs the row as the check does. */
function runRow(snippets: Record<string, string>) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'snippet-batch-test-'));
  temps.push(dir);
  writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }\n');
  for (const [file, code] of Object.entries(snippets)) writeFileSync(path.join(dir, file), code);
  const batch = Object.keys(snippets).map((file, index) => step(10 * (index + 1), file));
  const runner = batchFile('a-guide', batch);
  writeFileSync(path.join(dir, runner.name), runner.content);
  const ran = spawnSync(TSX, [runner.name], { cwd: dir, encoding: 'utf8', timeout: 30_000 });
  return { batch, runner, result: { code: ran.status ?? -1, stdout: ran.stdout, stderr: ran.stderr } };
}

// Each snippet declares the same names at its top, as snippets of one template do: one module each.
const prints = (text: string) => `const client = { name: '${text}' };\nconsole.log(client.name);\n`;

describe('a row of snippets in one process', () => {
  it('runs each snippet whole, in order, as a module of its own, and reads what each printed', () => {
    const { batch, runner, result } = runRow({
      'snippet-a-10.ts': prints('first'),
      'snippet-a-20.ts': `await new Promise((resolve) => setTimeout(resolve, 20));\n${prints('second')}`,
      'snippet-a-30.ts': prints('third'),
    });
    expect(runner.name).toBe('check-snippets-a-guide-10.mjs');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect([...outputBySnippet(result.stdout)]).toEqual([
      ['snippet-a-10.ts', 'first\n'],
      ['snippet-a-20.ts', 'second\n'],
      ['snippet-a-30.ts', 'third\n'],
    ]);
    expect(batchFailure(batch, result)).toBeUndefined();
  });

  it('stops at a snippet that sets a failing exit code, naming it; the ones after it do not run', () => {
    const { batch, result } = runRow({
      'snippet-a-10.ts': prints('first'),
      'snippet-a-20.ts': "console.log('report not ok');\nprocess.exitCode = 1;\n",
      'snippet-a-30.ts': prints('third'),
    });
    expect(result.code).toBe(1);
    expect([...outputBySnippet(result.stdout).keys()]).toEqual(['snippet-a-10.ts', 'snippet-a-20.ts']);
    expect(batchFailure(batch, result)).toEqual({ step: batch[1], why: 'exited with code 1' });
  });

  it('stops at a snippet that throws, naming it, with its error on stderr', () => {
    const { batch, result } = runRow({
      'snippet-a-10.ts': prints('first'),
      'snippet-a-20.ts': "throw new Error('the snippet broke');\n",
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('the snippet broke');
    expect(batchFailure(batch, result)).toEqual({ step: batch[1], why: 'exited with code 1' });
  });

  it('says which snippets a process.exit() left unrun, though the exit code was 0', () => {
    const { batch, result } = runRow({
      'snippet-a-10.ts': 'process.exit(0);\n',
      'snippet-a-20.ts': prints('second'),
      'snippet-a-30.ts': prints('third'),
    });
    expect(result.code).toBe(0);
    expect(batchFailure(batch, result)).toEqual({
      step: batch[0],
      why: 'ended the process before snippet-a-20.ts, snippet-a-30.ts ran (run alone, each would have)',
    });
  });
});

describe('batchFailure', () => {
  it('names the first snippet when the process failed before any started', () => {
    const batch = [step(5, 'snippet-b-5.ts'), step(9, 'snippet-b-9.ts')];
    expect(batchFailure(batch, { code: 1, stdout: '' })).toEqual({
      step: batch[0],
      why: 'exited with code 1 before it started',
    });
    expect(
      batchFailure(batch, {
        code: 0,
        stdout: `${SNIPPET_MARK} snippet-b-5.ts\n${SNIPPET_MARK} snippet-b-9.ts\n`,
      }),
    ).toBeUndefined();
  });
});
