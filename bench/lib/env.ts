/** Facts about the machine and the code under test, recorded beside every result. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';

/** Machine, runtime and package facts. */
export interface Environment {
  /** When the run started (ISO 8601). */
  date: string;
  /** `process.version`. */
  node: string;
  /** Operating system and architecture. */
  platform: string;
  /** CPU model as the OS reports it. */
  cpuModel: string;
  /** Logical cores. */
  cores: number;
  /** Total memory in GiB. */
  memoryGiB: number;
  /** Git commit of the tree measured, with `+dirty` when it has uncommitted changes. */
  commit: string;
  /** Versions of the packages under test and of the baselines. */
  packages: Record<string, string>;
}

function packageVersion(name: string): string {
  const candidates = [
    `packages/${name.replace('@company-data/', '')}/package.json`,
    `node_modules/${name}/package.json`,
  ];
  for (const file of name.startsWith('@company-data/') ? candidates : candidates.slice(1)) {
    try {
      return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
    } catch {
      // try the next place
    }
  }
  return 'not installed';
}

function gitCommit(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    // The results files themselves do not make the measured code dirty.
    const dirty = execFileSync(
      'git',
      ['status', '--porcelain', '--', 'packages', 'bench', ':!bench/results'],
      {
        encoding: 'utf8',
      },
    ).trim();
    return dirty ? `${head}+dirty` : head;
  } catch {
    return 'unknown';
  }
}

/** Collects the environment of this run. */
export function environment(): Environment {
  const cpus = os.cpus();
  const names = [
    '@company-data/sdk',
    '@company-data/mock-server',
    '@company-data/contract',
    'undici',
    'zod',
    'msw',
    'autocannon',
    'tsx',
  ];
  return {
    date: new Date().toISOString(),
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    cores: os.availableParallelism?.() ?? cpus.length,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    commit: gitCommit(),
    packages: {
      ...Object.fromEntries(names.map((name) => [name, packageVersion(name)])),
      'undici (bundled in Node, behind fetch)': process.versions.undici ?? 'unknown',
    },
  };
}
