import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { alive, runningKeptMock, stopKeptMock } from './kept-mock.mjs';

// Real time: the keeper's idle time is the feature (a few hundred ms here, 30 minutes for a reader).

const KEEPER = path.join(import.meta.dirname, 'kept-mock-keeper.mjs');
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function startKeeper(idleMs: number) {
  const dir = mkdtempSync(path.join(tmpdir(), 'kept-mock-test-'));
  dirs.push(dir);
  const file = path.join(dir, 'kept-mock.json');
  const keeper = spawn(process.execPath, [KEEPER, file, String(idleMs), '--calls', '7', '--freeze'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = once(keeper, 'exit').then(([code]) => code as number | null);
  const [line] = (await once(createInterface({ input: keeper.stdout }), 'line')) as [string];
  return { file, keeper, exited, said: JSON.parse(line) };
}

describe('the kept mock', () => {
  it('names the keeper and the mock in its file, and stops both, removing it, once unused for its idle time', async () => {
    const { file, keeper, exited, said } = await startKeeper(400);
    expect(said.kept.keeperPid).toBe(keeper.pid);
    expect(said.kept.args).toEqual(['--calls', '7', '--freeze']);
    expect(runningKeptMock(file)?.summary.baseURL).toBe(said.kept.summary.baseURL);
    expect(await exited).toBe(0);
    expect(existsSync(file)).toBe(false);
    expect(alive(said.kept.summary.pid)).toBe(false);
  });

  it('stops when its file goes away or names another keeper, and --stop stops one that runs', async () => {
    const gone = await startKeeper(5_000);
    rmSync(gone.file);
    expect(await gone.exited).toBe(0);
    expect(alive(gone.said.kept.summary.pid)).toBe(false);

    const replaced = await startKeeper(5_000);
    writeFileSync(replaced.file, JSON.stringify({ ...replaced.said.kept, keeperPid: process.pid }));
    expect(await replaced.exited).toBe(0);
    expect(alive(replaced.said.kept.summary.pid)).toBe(false);

    const stopped = await startKeeper(5_000);
    expect((await stopKeptMock(stopped.file))?.keeperPid).toBe(stopped.keeper.pid);
    expect(await stopped.exited).toBe(0);
    expect(existsSync(stopped.file)).toBe(false);
    expect(alive(stopped.said.kept.summary.pid)).toBe(false);
    expect(await stopKeptMock(stopped.file)).toBeUndefined();
  });

  it('forgets a file whose keeper was killed', async () => {
    const { file, keeper, exited, said } = await startKeeper(5_000);
    keeper.kill('SIGKILL');
    await exited;
    // The mock it started is an orphan now: stopped by the test, as a reboot would have.
    process.kill(said.kept.summary.pid, 'SIGTERM');
    expect(runningKeptMock(file)).toBeUndefined();
    expect(existsSync(file)).toBe(false);
  });
});
