// The guides' Python snippets (a `python` block the text gives no file name), run as a reader runs them: pasted,
// one after another, into one `python3` opened in a terminal of its own for the guide, so that a snippet uses
// what the snippets before it defined ("with the `admin` function above") and finds the mock as the guide's
// commands before it left it. The check pastes each snippet into Python's own interactive console
// (`code.InteractiveConsole`, what the classic `python3` prompt runs): line by line, then an empty line that
// ends an open block, each expression's value echoed as the prompt echoes it. A snippet that raises, or that
// the prompt cannot read (a blank line inside a function, say), has failed, as its reader would see it fail.

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';

/**
 * The line the console prints on stdout after each snippet: the mark, then JSON: `ok`, and `errors`, the
 * tracebacks the prompt would have shown (on stderr, for a reader).
 */
export const PASTED_MARK = '@@guide-python-pasted';

/**
 * The console the check pastes into: Python's interactive console reading one snippet a line (as JSON) on
 * stdin, pasting its lines, and printing the mark once it has run. Its other output is the snippet's.
 */
export const CONSOLE_SCRIPT = [
  "# Written by the guides' check, not by a guide: the python3 prompt a reader pastes the snippets into.",
  'import code, json, sys',
  '',
  'class Console(code.InteractiveConsole):',
  '    errors = ""',
  '    def write(self, data):  # the tracebacks and syntax errors the prompt shows',
  '        self.errors += data',
  '',
  'console = Console(locals={"__name__": "__main__"})',
  'for request in sys.stdin:',
  '    console.errors = ""',
  '    for line in json.loads(request).split("\\n"):',
  '        console.push(line)',
  '    console.push("")',
  '    sys.stderr.flush()',
  `    print("${PASTED_MARK}", json.dumps({"ok": console.errors == "", "errors": console.errors}), flush=True)`,
  '',
].join('\n');

/**
 * @typedef {object} PythonSession
 * @property {(code: string, options: { timeoutMs: number }) => Promise<{ ok: boolean, stdout: string, errors: string }>} paste
 *   pastes one snippet and resolves once it has run: whether it ran without an error, what it printed on
 *   stdout (echoed values included), and the tracebacks and syntax errors the prompt showed.
 * @property {() => Promise<void>} close - ends the input, as Ctrl+D does, and waits for python3 to exit.
 */

/**
 * Opens `python3 -u` on the console above, in `cwd` with `env` (the reader's terminal), through `enter`
 * when the terminal's shell has a network of its own (`nsenter …`). `dir` gets the console's script.
 *
 * @param {{ cwd: string, env: NodeJS.ProcessEnv, dir: string, enter?: string[] }} options
 * @returns {Promise<PythonSession>}
 * @throws {Error} when python3 cannot be started.
 */
export async function openPythonSession({ cwd, env, dir, enter = [] }) {
  const script = path.join(dir, 'python-console.py');
  await writeFile(script, CONSOLE_SCRIPT);
  const [program = 'python3', ...args] = [...enter, 'python3', '-u', script];
  const child = spawn(program, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  await Promise.race([
    once(child, 'spawn'),
    once(child, 'error').then(([error]) => {
      throw new Error(`python3 did not start: ${error.message}`);
    }),
  ]);
  const exited = once(child, 'exit');
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text) => {
    stderr += text;
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    async paste(code, { timeoutMs }) {
      child.stdin.write(`${JSON.stringify(code)}\n`);
      /** @type {NodeJS.Timeout | undefined} */
      let timer;
      /** @type {Promise<never>} */
      const timedOut = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`did not finish within ${timeoutMs / 1000} s`)), timeoutMs);
      });
      const printed = [];
      try {
        for (;;) {
          const next = await Promise.race([lines.next(), timedOut]);
          if (next.done) throw new Error(`python3 exited${stderr ? `: ${stderr.trim()}` : ''}`);
          if (next.value.startsWith(`${PASTED_MARK} `)) {
            /** @type {{ ok: boolean, errors: string }} */
            const { ok, errors } = JSON.parse(next.value.slice(PASTED_MARK.length + 1));
            return { ok, stdout: printed.map((line) => `${line}\n`).join(''), errors };
          }
          printed.push(next.value);
        }
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
