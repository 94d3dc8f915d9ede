/**
 * Loads one package in a fresh plain `node` process, as a user's program would on start-up: no tsx, no
 * `@company-data/source` condition, run from the repository root, so workspace packages resolve to their
 * built `dist` files exactly as from the packed tarballs. A module loads once per process, hence one process
 * per sample.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './built.js';
import { type ProfileSummary, summarise } from './profile.js';

/** One way of loading a package. */
export interface ImportProbe {
  /** Label in the results. */
  label: string;
  /** What is imported, e.g. `undici`. */
  specifier: string;
  /** `import()` from an ES module, or `require()` from CommonJS. */
  kind: 'import' | 'require';
}

/** What one fresh process measured. */
export interface ImportSample {
  /** Milliseconds the `import()` (or `require()`) took. */
  ms: number;
  /** Resident set size of the process right after it, in bytes. */
  rss: number;
  /** The file the specifier resolved to (a `file:` URL or a path). */
  resolved: string;
}

/** The `-e` script: time the load, then report time, RSS and what was resolved as JSON on stdout. */
function script(probe: ImportProbe): string {
  const spec = JSON.stringify(probe.specifier);
  const load = probe.kind === 'import' ? `await import(${spec})` : `require(${spec})`;
  const resolve = probe.kind === 'import' ? `import.meta.resolve(${spec})` : `require.resolve(${spec})`;
  return (
    `const t = performance.now(); ${load}; const ms = performance.now() - t; ` +
    `const rss = process.memoryUsage().rss; ` +
    `process.stdout.write(JSON.stringify({ ms, rss, resolved: ${resolve} }));`
  );
}

/** Runs a probe's script in a fresh `node` with the given extra flags; throws with node's first error line. */
function runProbe(probe: ImportProbe, nodeArgs: readonly string[]): ImportSample {
  // Nothing from this process's environment may change how node loads modules (flags, compile cache).
  const { NODE_OPTIONS: _options, NODE_COMPILE_CACHE: _cache, ...env } = process.env;
  const child = spawnSync(
    process.execPath,
    [...(probe.kind === 'import' ? ['--input-type=module'] : []), ...nodeArgs, '-e', script(probe)],
    { cwd: REPO_ROOT, env, encoding: 'utf8', timeout: 60_000, killSignal: 'SIGKILL' },
  );
  if (child.status !== 0) {
    const line = child.stderr.split('\n').find((l) => /Error|error:/.test(l)) ?? child.stderr.split('\n')[0];
    throw new Error(
      `${probe.label} failed (${child.signal ?? `exit code ${child.status}`}): ${line?.trim()}`,
    );
  }
  return JSON.parse(child.stdout) as ImportSample;
}

/**
 * Measures one load of a package in a fresh process. Plain `node`, so the figure measures what users run,
 * whatever loader runs the benchmark itself.
 */
export function importInFreshNode(probe: ImportProbe): ImportSample {
  return runProbe(probe, []);
}

/**
 * Loads a package once more in a fresh process under V8's CPU profiler (`--cpu-prof`) and summarises the
 * profile by module: names what the load spends its time on when it misses its target.
 */
export function profileFreshImport(probe: ImportProbe): ProfileSummary {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-import-prof-'));
  try {
    runProbe(probe, ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=100']);
    const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
    if (!file) throw new Error('node wrote no CPU profile');
    return summarise(JSON.parse(readFileSync(path.join(dir, file), 'utf8')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
