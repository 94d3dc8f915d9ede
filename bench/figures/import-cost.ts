/**
 * Figure 6: what importing the SDK costs a program on start-up, against importing undici alone (the HTTP
 * client the SDK is built on). Each sample is a fresh plain `node` process loading the built package, as
 * users get it; the time of the `import()` and the process's RSS right after it are compared.
 */
import { assertFreshBuild, importedSpecifiers, SDK_DIST } from '../lib/built.js';
import { type FigureContext, ResultBuilder } from '../lib/figure.js';
import { type ImportProbe, importInFreshNode, profileFreshImport } from '../lib/fresh-import.js';
import { describeProfile } from '../lib/profile.js';
import { atMost, type FigureResult, measurement } from '../lib/result.js';
import { rotate } from '../lib/stats.js';
import { FIGURES } from './index.js';

const SPEC = FIGURES.find((f) => f.id === 'import-cost') as (typeof FIGURES)[number];
const MB = 1024 * 1024;

/** What is loaded, by name; `undici` is the baseline, `sdk` what the targets are about, the rest information. */
const PROBES = {
  undici: { label: "import('undici') alone (baseline)", specifier: 'undici', kind: 'import' },
  sdk: { label: "import('@company-data/sdk')", specifier: '@company-data/sdk', kind: 'import' },
  sdkRequire: {
    label: "require('@company-data/sdk') from CommonJS (information)",
    specifier: '@company-data/sdk',
    kind: 'require',
  },
  zod: { label: "import('zod') alone (information)", specifier: 'zod', kind: 'import' },
  runtime: {
    label: "import('@company-data/contract/runtime') alone (information)",
    specifier: '@company-data/contract/runtime',
    kind: 'import',
  },
} as const satisfies Record<string, ImportProbe>;
type Name = keyof typeof PROBES;

/** Where each SDK probe must resolve: the build, never the sources. */
const EXPECTED: Partial<Record<Name, string>> = {
  sdk: SDK_DIST,
  sdkRequire: 'packages/sdk/dist/index.cjs',
};

/** Runs figure 6. */
export async function run(ctx: FigureContext): Promise<FigureResult> {
  assertFreshBuild();
  const r = new ResultBuilder(SPEC);
  const rounds = ctx.quick ? 4 : 15;
  r.method(
    `Each sample is a fresh \`node\` process (plain node: no tsx, no source condition, no NODE_OPTIONS; run from ` +
      `the repository root, so workspace packages resolve to their built dist files as from the packed tarballs) ` +
      `given a one-line script with \`-e\` (\`--input-type=module\` for \`import()\`, CommonJS for \`require()\`) ` +
      `that times the one import with performance.now() and then reads process.memoryUsage().rss. One unrecorded ` +
      `process per variant first (file cache), then ${rounds} interleaved rounds, each starting one process per ` +
      `variant in a rotated order; the value is the median over rounds, nothing subtracted (the RSS includes ` +
      `node itself), and a ratio is the ratio of medians.`,
  );

  // One load of each first: proves it resolves where it should, and warms the file cache for every variant.
  const names: Name[] = [];
  for (const name of Object.keys(PROBES) as Name[]) {
    const probe: ImportProbe = PROBES[name];
    try {
      const { resolved } = importInFreshNode(probe);
      const expected = EXPECTED[name];
      if (expected && !resolved.replace(/^file:\/\//, '').endsWith(expected)) {
        throw new Error(
          `${probe.label} resolved to ${resolved.split('/packages/')[1] ?? resolved}, not ${expected}`,
        );
      }
      names.push(name);
    } catch (error) {
      if (name === 'undici' || name === 'sdk') throw error;
      r.note(`${probe.label}: not measured: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  const ms = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<Name, number[]>;
  const rss = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<Name, number[]>;
  for (let round = 0; round < rounds; round++) {
    for (const name of rotate(names, round)) {
      const sample = importInFreshNode(PROBES[name]);
      ms[name].push(sample.ms);
      rss[name].push(sample.rss / MB);
    }
    ctx.log(
      `round ${round + 1}/${rounds}: ${names.map((n) => `${n} ${Math.round(ms[n].at(-1) ?? 0)} ms`).join(', ')}`,
    );
  }

  const time = {} as Record<Name, number>;
  const memory = {} as Record<Name, number>;
  for (const name of names) {
    time[name] = r.measure(measurement(`${PROBES[name].label} — import time`, 'ms', ms[name])).median;
  }
  for (const name of names) {
    memory[name] = r.measure(measurement(`${PROBES[name].label} — RSS after it`, 'MiB', rss[name])).median;
  }
  const checks = [
    r.check(atMost('import.time', "SDK import time / undici's", time.sdk / time.undici, 1.5)),
    r.check(
      atMost('import.rss', "RSS after the SDK's import / after undici's", memory.sdk / memory.undici, 1.5),
    ),
  ];

  const imports = importedSpecifiers(SDK_DIST);
  r.note(
    `${SDK_DIST} imports at load: ${imports.atLoad.join(', ') || 'nothing'}; on first need only: ` +
      `${imports.onDemand.join(', ') || 'nothing'}.`,
  );
  if (checks.some((check) => check.pass === false)) {
    const summary = profileFreshImport(PROBES.sdk);
    const where = `a fresh node process importing @company-data/sdk (whole process, start-up included)`;
    for (const check of checks) {
      if (check.pass === false) {
        check.note = `The SDK's dist imports ${imports.atLoad.join(', ')} at load. ${describeProfile(where, summary)}`;
      }
    }
  }
  return r.build();
}
