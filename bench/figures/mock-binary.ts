/**
 * Figure 11: the mock as one file (`npm run build:mock-binary`, Node's single-executable applications)
 * against the npm command it packs, as each is run: how long from starting it to its JSON line, how much memory
 * it holds then, and what each takes on disk. The binary runs alone in an empty folder with a PATH that holds no
 * program; the npm command runs installed, from the packed tarballs, in a project of its own.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  copyFileSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { run as runCommand } from '../../scripts/packaging/process.mjs';
import { buildMockBinary } from '../../scripts/sea/build.mjs';
import { assertFreshBuild, REPO_ROOT } from '../lib/built.js';
import { type FigureContext, ResultBuilder } from '../lib/figure.js';
import { atMost, type FigureResult, measurement } from '../lib/result.js';
import { rotate } from '../lib/stats.js';
import { FIGURES } from './index.js';

const SPEC = FIGURES.find((f) => f.id === 'mock-binary') as (typeof FIGURES)[number];
const MB = 1e6;
const MIB = 1024 * 1024;
const START_ARGS = ['--port', '0', '--json', '--exit-on-stdin-close'];
const PACKAGES = ['@company-data/contract', '@company-data/mock-server'];

/** How each variant is started: program, arguments before {@link START_ARGS}, folder and environment. */
interface Variant {
  label: string;
  command: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** Bytes of every file under `dir` (symbolic links counted as links, not followed). */
function bytesUnder(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const stat = lstatSync(path.join(dir, entry));
    if (stat.isFile()) total += stat.size;
  }
  return total;
}

/** The resident memory of a running process, in MiB (Linux; NaN elsewhere). */
function rssMiB(pid: number): number {
  try {
    const kB = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kB === undefined ? Number.NaN : (Number(kB) * 1024) / MIB;
  } catch {
    return Number.NaN;
  }
}

/**
 * Starts a variant, times the wait for its first line on stdout (the JSON line: it listens), reads the
 * server's memory, then closes its standard input and waits for it to exit.
 */
async function startOnce({ command, cwd, env }: Variant): Promise<{ ms: number; rss: number }> {
  const [program = '', ...args] = command;
  const started = performance.now();
  const child = spawn(program, [...args, ...START_ARGS], { cwd, env, stdio: ['pipe', 'pipe', 'ignore'] });
  const exited = once(child, 'exit');
  const line = await Promise.race([
    once(createInterface({ input: child.stdout }), 'line').then(([first]) => String(first)),
    exited.then(() => undefined),
  ]);
  const ms = performance.now() - started;
  if (line === undefined) throw new Error(`${command.join(' ')} exited before its JSON line`);
  const rss = rssMiB((JSON.parse(line) as { pid: number }).pid);
  child.stdin.end();
  await exited;
  return { ms, rss };
}

/** Runs figure 11. */
export async function run(ctx: FigureContext): Promise<FigureResult> {
  assertFreshBuild(); // the npm command is packed from the build
  const r = new ResultBuilder(SPEC);
  const rounds = ctx.quick ? 3 : 15;
  const temp = mkdtempSync(path.join(os.tmpdir(), 'company-data-bench-binary-'));
  try {
    // The binary, as `npm run build:mock-binary` makes it, copied alone into an empty folder.
    const built = await buildMockBinary(REPO_ROOT, path.join(temp, 'built'));
    const alone = path.join(temp, 'alone');
    const noPrograms = path.join(temp, 'no-programs');
    mkdirSync(alone);
    mkdirSync(noPrograms);
    const binary = path.join(alone, path.basename(built.binary));
    copyFileSync(built.binary, binary);
    ctx.log(`built ${path.basename(binary)}: ${(built.bytes / MB).toFixed(1)} MB`);

    // The npm command, installed from the packed tarballs in a project of its own (msw, an optional peer, is not).
    const tarballs = path.join(temp, 'tarballs');
    const project = path.join(temp, 'project');
    mkdirSync(project);
    mkdirSync(tarballs);
    const workspaces = PACKAGES.flatMap((name) => ['-w', name]);
    await runCommand('npm', ['pack', ...workspaces, '--pack-destination', tarballs], { cwd: REPO_ROOT });
    await runCommand('npm', ['init', '-y'], { cwd: project });
    const packed = readdirSync(tarballs).map((name) => path.join(tarballs, name));
    await runCommand('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...packed], {
      cwd: project,
      timeoutMs: 150_000,
    });
    const installed = bytesUnder(path.join(project, 'node_modules'));
    const nodeBytes = statSync(process.execPath).size;
    const npmDir = (await runCommand('npm', ['root', '-g'])).stdout.trim();
    const npmBytes = bytesUnder(path.join(npmDir, 'npm'));

    const userEnv = { PATH: process.env.PATH, HOME: process.env.HOME };
    const installedBin = path.join(
      project,
      'node_modules',
      '@company-data',
      'mock-server',
      'bin',
      'company-data-mock.mjs',
    );
    const variants: Record<'binary' | 'node' | 'npx', Variant> = {
      binary: {
        label: 'the binary, alone (PATH without any program)',
        command: [binary],
        cwd: alone,
        env: { PATH: noPrograms },
      },
      node: {
        label: 'node node_modules/@company-data/mock-server/bin/company-data-mock.mjs (installed)',
        command: [process.execPath, installedBin],
        cwd: project,
        env: userEnv,
      },
      npx: {
        label: 'npx company-data-mock (installed)',
        command: ['npx', 'company-data-mock'],
        cwd: project,
        env: userEnv,
      },
    };
    const names = Object.keys(variants) as (keyof typeof variants)[];
    r.method(
      `The binary is built as \`npm run build:mock-binary\` builds it (esbuild bundle of the command's sources into ` +
        `one CommonJS script, a blob with its V8 code cache, injected into a copy of this node with postject) and ` +
        `copied alone into an empty folder, where it runs with PATH set to an empty folder and nothing else in its ` +
        `environment. The npm command is installed from the packed tarballs of the contract and the mock server ` +
        `(\`npm install\` in a fresh project; msw, an optional peer, not installed) and run there with node, and ` +
        `through npx. Each sample starts one process with \`--port 0 --json --exit-on-stdin-close\` and times the ` +
        `wait for its JSON line (it listens then); the server's resident memory is read from /proc at that moment; ` +
        `then its standard input is closed and its exit awaited. One unrecorded start per variant first (file ` +
        `cache), then ${rounds} interleaved rounds in rotated order; values are medians over rounds. Sizes are ` +
        `bytes on disk: the binary; node's executable (\`process.execPath\`, which the binary is a copy of); the project's node_modules after ` +
        `the install; npm's own folder (npx is npm's).`,
    );

    for (const name of names) await startOnce(variants[name]);
    const ms = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<string, number[]>;
    const rss = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<string, number[]>;
    for (let round = 0; round < rounds; round++) {
      for (const name of rotate(names, round)) {
        const sample = await startOnce(variants[name]);
        ms[name]?.push(sample.ms);
        rss[name]?.push(sample.rss);
      }
      ctx.log(
        `round ${round + 1}/${rounds}: ${names.map((n) => `${n} ${Math.round(ms[n]?.at(-1) ?? 0)} ms`).join(', ')}`,
      );
    }

    const start: Record<string, number> = {};
    for (const name of names) {
      start[name] = r.measure(
        measurement(`${variants[name].label} — start to its JSON line`, 'ms', ms[name] ?? []),
      ).median;
    }
    for (const name of names) {
      r.measure(measurement(`${variants[name].label} — server's RSS then`, 'MiB', rss[name] ?? []));
    }
    const size = (label: string, bytes: number) => r.measure(measurement(label, 'MB', [bytes / MB])).median;
    const binaryMB = size('the binary (one file)', built.bytes);
    r.measure(
      measurement('the bundled script inside it (before its code cache)', 'MB', [built.bundleBytes / MB]),
    );
    const nodeMB = size("node's executable (the npm command's runtime)", nodeBytes);
    const installedMB = size('node_modules of a project with the mock server installed', installed);
    size("npm's folder (for npx)", npmBytes);
    r.check(
      atMost(
        'binary.start',
        "the binary's start / the installed command's under node",
        (start.binary ?? 0) / (start.node ?? 1),
        1,
      ),
    );
    r.check(
      atMost(
        'binary.size',
        "the binary's size / node's executable and the installed node_modules",
        binaryMB / (nodeMB + installedMB),
        1,
      ),
    );
    r.note(
      `npx's start is ${((start.npx ?? 0) / (start.binary ?? 1)).toFixed(1)}× the binary's: npm starts first, ` +
        'then a shell, then node with the command.',
    );
    return r.build();
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}
