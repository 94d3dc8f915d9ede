import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FixtureSchema, type MockServer, startMockServer } from '@company-data/mock-server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkpointPath } from '../src/snapshot/checkpoint.js';
import { envFor, runInProcess, spawnCli } from './support/run.js';

let source: MockServer;
let dir: string;

beforeAll(async () => {
  source = await startMockServer({ port: 0, seed: 5 });
});
afterAll(() => source.close());
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'company-data-interrupt-'));
  // Slow transcripts: the snapshot is surely mid-run when the test stops it.
  source.injectFault({ path: /\/transcript\/$/, delayMs: 40, times: 10_000 });
});
afterEach(async () => {
  source.reset();
  await rm(dir, { recursive: true, force: true });
});

/** Starts `company-data snapshot` in a child process and resolves once it is `percent` through the records. */
async function startSnapshot(output: string, percent: number) {
  const child = spawnCli(['snapshot', output], { env: envFor(source) });
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes(`(${percent}%)`)) resolve();
    });
    void exited.then(() => reject(new Error(`the snapshot ended early: ${stderr}`)));
  });
  return { child, exited, stderr: () => stderr };
}

describe('an interrupted snapshot', () => {
  it('leaves no fixture behind when killed, and the next run resumes where it stopped', async () => {
    const output = join(dir, 'fixture.json');
    const run = await startSnapshot(output, 20);
    run.child.kill('SIGKILL');
    await run.exited;
    // No fixture: only the lock the killed run held, which the next run takes over by itself.
    expect((await readdir(dir)).sort()).toEqual(['fixture.json.lock', 'fixture.json.lock.json']);
    const saved = (await readFile(checkpointPath(output), 'utf8')).trim().split('\n').length - 1;
    expect(saved).toBeGreaterThanOrEqual(60);

    source.reset();
    const resumed = await runInProcess(['snapshot', 'fixture.json'], { env: envFor(source), cwd: dir });
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toMatch(
      new RegExp(
        `the snapshot that held .*fixture\\.json \\(pid ${run.child.pid} on .*\\) is gone; taking over`,
      ),
    );
    expect(resumed.stderr).toMatch(/resuming an interrupted snapshot: \d+ records already fetched/);
    const fromBefore = Number(/(\d+) records came from the interrupted run/.exec(resumed.stdout)?.[1]);
    expect(fromBefore).toBeGreaterThanOrEqual(saved - 1);
    // Only what was missing was fetched again.
    const transcripts = source.journal().filter((entry) => entry.path.endsWith('/transcript/')).length;
    expect(transcripts).toBe(60 + 240 - fromBefore);
    expect(FixtureSchema.safeParse(JSON.parse(await readFile(output, 'utf8'))).success).toBe(true);
    expect(existsSync(checkpointPath(output))).toBe(false);
    expect((await readdir(dir)).sort()).toEqual(['fixture.json']);
  }, 30_000);

  it('stops cleanly on Ctrl+C: exit 130, no file, and says how to go on', async () => {
    const output = join(dir, 'fixture.json');
    const run = await startSnapshot(output, 10);
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(130);
    expect(run.stderr()).toMatch(
      /interrupted\. Nothing was written; .*run the same command again \(--fresh starts over\)/,
    );
    expect(await readdir(dir)).toEqual([]);
    expect(existsSync(checkpointPath(output))).toBe(true);

    source.reset();
    const fresh = await runInProcess(['snapshot', 'fixture.json', '--fresh', '--max-calls', '5'], {
      env: envFor(source),
      cwd: dir,
    });
    expect(fresh.code).toBe(0);
    expect(fresh.stderr).not.toMatch(/resuming/);
    expect(fresh.stdout).not.toMatch(/interrupted run/);
  }, 30_000);

  it('refuses to mix in an interrupted snapshot of another server, unless --fresh', async () => {
    const other = await startMockServer({ port: 0, seed: 5 });
    try {
      const run = await startSnapshot(join(dir, 'fixture.json'), 10);
      run.child.kill('SIGKILL');
      await run.exited;
      const refused = await runInProcess(['snapshot', 'fixture.json'], { env: envFor(other), cwd: dir });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/read from another server .*Pass --fresh to discard it/);
      const fresh = await runInProcess(['snapshot', 'fixture.json', '--fresh', '--max-calls', '3'], {
        env: envFor(other),
        cwd: dir,
      });
      expect(fresh.code).toBe(0);
    } finally {
      await other.close();
    }
  }, 30_000);

  it('removes the temporary file a run killed while writing left behind', async () => {
    source.reset();
    await writeFile(join(dir, '.fixture.json.4194399.company-data-tmp'), '{"compan');
    await writeFile(join(dir, '.other.json.4194399.company-data-tmp'), '{"comp');
    const ran = await runInProcess(['snapshot', 'fixture.json', '--max-calls', '2', '--fresh'], {
      env: envFor(source),
      cwd: dir,
    });
    expect(ran.code).toBe(0);
    expect((await readdir(dir)).sort()).toEqual(['.other.json.4194399.company-data-tmp', 'fixture.json']);
  });
});
