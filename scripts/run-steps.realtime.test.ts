// The step runner's process launcher, with real child processes: real time, because a process starts, writes
// and dies on the operating system's clock, which no test clock moves.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { launchProcess } from './run-steps.mjs';

const dir = mkdtempSync(join(tmpdir(), 'run-steps-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Resolves once `check` holds, looking every 20 ms; rejects after `within` ms naming `what`. */
async function until(check: () => boolean, what: string, within = 10_000): Promise<void> {
  const deadline = Date.now() + within;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Whether the process runs: a zombie (dead, waiting for a parent to collect it) does not. */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, 'utf8') : '';
  return !/^\d+ \(.*\) Z/.test(stat);
};

describe('launchProcess', () => {
  it('keeps stdout and stderr, and the exit code', async () => {
    const script = "process.stdout.write('out\\n'); process.stderr.write('err\\n'); process.exitCode = 3;";
    const result = await launchProcess({ name: 'node', command: [process.execPath, '-e', script] }).done;
    expect(result.code).toBe(3);
    expect(result.output.split('\n').sort()).toEqual(['', 'err', 'out']);
  });

  it('says so when the program does not exist', async () => {
    const result = await launchProcess({ name: 'nothing', command: [join(dir, 'no-such-program')] }).done;
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/could not start: .*ENOENT/);
  });

  it.skipIf(process.platform === 'win32')(
    "runs a step, and what it starts, at the step's lower priority",
    async () => {
      // The step reads its priority a moment after it starts (the launcher sets it just after the start),
      // has a child read its own, and reads its session's autogroup ('-' where the system has none). 19, the
      // lowest: a process may lower its priority, never raise it, and this file may itself run at a lower
      // one.
      const script = [
        "const { getPriority } = require('node:os');",
        "const { execFileSync } = require('node:child_process');",
        "const { existsSync, readFileSync } = require('node:fs');",
        'setTimeout(() => {',
        "  const child = execFileSync(process.execPath, ['-p', 'require(\"node:os\").getPriority()']);",
        "  const group = '/proc/self/autogroup';",
        "  const autogroup = existsSync(group) ? readFileSync(group, 'utf8').split(' nice ')[1].trim() : '-';",
        "  console.log([getPriority(), String(child).trim(), autogroup].join(' '));",
        '}, 200);',
      ].join('\n');
      const result = await launchProcess({
        name: 'low',
        command: [process.execPath, '-e', script],
        nice: 19,
      }).done;
      expect(result.output.trim()).toMatch(/^19 19 (19|-)$/);
      // A step at normal priority: its processes as this one, its session's autogroup at the default.
      const normal = await launchProcess({
        name: 'normal',
        command: [process.execPath, '-e', script],
      }).done;
      expect(normal.output.trim()).toMatch(new RegExp(`^${os.getPriority()} ${os.getPriority()} (0|-)$`));
    },
  );

  it.skipIf(process.platform === 'win32')('stops a step and the processes it started', async () => {
    const pidFile = join(dir, 'grandchild.pid');
    // The step starts a child that would run forever, writes its pid, and runs forever itself.
    const script = [
      "const { spawn } = require('node:child_process');",
      "const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });",
      `require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(child.pid));`,
      'setInterval(() => {}, 1000);',
    ].join('\n');
    const launched = launchProcess({ name: 'forever', command: [process.execPath, '-e', script] });
    await until(
      () => existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== '',
      'the step to start its child',
    );
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    expect(alive(grandchild)).toBe(true);
    launched.stop();
    const { code } = await launched.done;
    expect(code).not.toBe(0);
    await until(() => !alive(grandchild), 'the grandchild to die', 5_000);
  });
});
