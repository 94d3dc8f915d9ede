// The rule for the programs the tests need beyond npm: install where it may, fail under CI where it may not,
// and elsewhere skip loudly, saying what to run.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  decide,
  findProgram,
  isCI,
  programOrSkip,
  SYSTEM_PROGRAMS,
  versionedBinDirs,
} from './system-packages.mjs';

const all = SYSTEM_PROGRAMS.map((entry) => entry.program);

describe('decide', () => {
  it('does nothing when every program is installed, whatever the rights', () => {
    for (const rights of ['root', 'sudo', 'none'] as const)
      for (const ci of [true, false]) expect(decide({ missing: [], rights, ci })).toEqual({ action: 'none' });
  });

  it('installs exactly the missing ones from Debian with apt-get, through sudo -n when not root', () => {
    expect(all).toEqual([
      'redis-server',
      'chromium',
      'postgres',
      'python3',
      'pytest-3',
      'slirp4netns',
      'xdist',
    ]);
    const asRoot = decide({ missing: ['redis-server'], rights: 'root', ci: true });
    expect(asRoot).toMatchObject({ action: 'install', packages: ['redis-server'] });
    if (asRoot.action !== 'install') throw new Error('unreachable');
    expect(asRoot.steps.map((step) => step.join(' '))).toEqual([
      'apt-get -o DPkg::Lock::Timeout=300 update -qq',
      'apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends redis-server',
    ]);
    expect(asRoot.line).toContain("installing redis-server from Debian's packages");
    expect(asRoot.line).not.toContain('\n');

    const withSudo = decide({ missing: all, rights: 'sudo', ci: false });
    if (withSudo.action !== 'install') throw new Error(`expected install, got ${withSudo.action}`);
    expect(withSudo.steps.every((step) => step[0] === 'sudo' && step[1] === '-n')).toBe(true);
    expect(withSudo.steps[1]?.slice(-7)).toEqual([
      'redis-server',
      'chromium',
      'postgresql',
      'python3',
      'python3-pytest',
      'slirp4netns',
      'python3-pytest-xdist',
    ]);
  });

  it("installs PostgreSQL's server (the program postgres) as Debian's package postgresql", () => {
    const decision = decide({ missing: ['postgres'], rights: 'root', ci: false });
    if (decision.action !== 'install') throw new Error(`expected install, got ${decision.action}`);
    expect(decision.packages).toEqual(['postgresql']);
    expect(decision.steps[1]?.at(-1)).toBe('postgresql');
    expect(decision.line).toBe(
      "system-packages: installing postgresql from Debian's packages (apt-get), needed by the tests against PostgreSQL and the guides' database (check:packages)",
    );
  });

  it('without the rights, outside CI: one loud line with the command to run, and says what is skipped', () => {
    const decision = decide({ missing: all, rights: 'none', ci: false });
    expect(decision.action).toBe('skip');
    if (decision.action === 'none') throw new Error('unreachable');
    expect(decision.line).not.toContain('\n');
    expect(decision.line).toContain(
      '`sudo apt-get update && sudo apt-get install -y redis-server chromium postgresql python3 python3-pytest slirp4netns python3-pytest-xdist`',
    );
    expect(decision.line).toContain(
      "until then the Redis fleet test (packages/redis-gate), the browser checks of check:docs-site and the mock's watch page (test:unit), the tests against PostgreSQL and the guides' database (check:packages), the testing guide's Python snippets, pasted into python3 (check:packages), the pytest examples of the mock binary's guide and of the testing guide (check:packages), the guides' network of their own (check:packages: a reader's mock left on port 4010 fails them not) and the testing guide's parallel pytest suite, `pytest-3 -n 8` (check:packages) are SKIPPED",
    );
    expect(decision.line).toMatch(/^!!!!/);
    expect(decision.line).toContain('the Redis fleet test (packages/redis-gate)');
    expect(decision.line).toContain('SKIPPED');
  });

  it('without the rights, under CI: fails, never skips', () => {
    const decision = decide({ missing: ['chromium'], rights: 'none', ci: true });
    expect(decision.action).toBe('fail');
    if (decision.action === 'none') throw new Error('unreachable');
    expect(decision.line).toContain('`sudo apt-get update && sudo apt-get install -y chromium`');
  });
});

describe("a program Debian installs off the PATH (PostgreSQL's server in /usr/lib/postgresql/<major>/bin)", () => {
  const root = mkdtempSync(join(tmpdir(), 'system-packages-versions-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const emptyPath = { PATH: join(root, 'nothing-here') };
  /** An executable `program` in `dir`, created with its folders. */
  function executable(dir: string, program: string) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, program), '#!/bin/sh\n');
    chmodSync(join(dir, program), 0o755);
    return join(dir, program);
  }

  it('lists the major versions newest first, by number (17 before 9.6), ignoring other names', () => {
    for (const name of ['9.6', '15', '17', '10', 'common', '.hidden'])
      mkdirSync(join(root, name, 'bin'), { recursive: true });
    expect(versionedBinDirs(root)).toEqual(['17', '15', '10', '9.6'].map((name) => join(root, name, 'bin')));
    expect(versionedBinDirs(join(root, 'missing'))).toEqual([]);
  });

  it("finds the newest major's postgres, not on the PATH; a major without one is passed over", () => {
    const in15 = executable(join(root, '15', 'bin'), 'postgres');
    expect(findProgram('postgres', emptyPath, { versionsIn: root })).toBe(in15);
    const in17 = executable(join(root, '17', 'bin'), 'postgres');
    expect(findProgram('postgres', emptyPath, { versionsIn: root })).toBe(in17);
    // Only postgres's entry says where Debian puts it: redis-server is looked for on the PATH alone.
    executable(join(root, '17', 'bin'), 'redis-server');
    expect(findProgram('redis-server', emptyPath)).toBeUndefined();
  });

  it('prefers the PATH (a PostgreSQL the person put there) to the versioned folders', () => {
    const onPath = executable(join(root, 'on-path'), 'postgres');
    expect(findProgram('postgres', { PATH: join(root, 'on-path') }, { versionsIn: root })).toBe(onPath);
  });

  it('programOrSkip returns the postgres found there; missing, it names the package postgresql', () => {
    expect(
      programOrSkip('postgres', { env: emptyPath, versionsIn: root, log: () => expect.fail('logged') }),
    ).toBe(join(root, '17', 'bin', 'postgres'));
    const lines: string[] = [];
    const none = join(root, 'no-postgresql');
    expect(
      programOrSkip('postgres', { env: emptyPath, versionsIn: none, log: (line) => lines.push(line) }),
    ).toBeUndefined();
    expect(lines).toEqual([
      "!!!! SKIPPED the tests against PostgreSQL and the guides' database (check:packages): no postgres on this machine; run `sudo apt-get update && sudo apt-get install -y postgresql` (or `node scripts/system-packages.mjs` as root)",
    ]);
    expect(() =>
      programOrSkip('postgres', {
        env: { ...emptyPath, CI: 'true' },
        versionsIn: none,
        log: () => undefined,
      }),
    ).toThrow(/no postgres on this machine, and CI skips nothing/);
  });
});

describe("a module of Debian's Python 3 (pytest-xdist, a plugin without a command of its own)", () => {
  const root = mkdtempSync(join(tmpdir(), 'system-packages-python-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('is found as its package folder in dist-packages, never on the PATH', () => {
    expect(findProgram('xdist', { PATH: '' }, { pythonModuleIn: root })).toBeUndefined();
    mkdirSync(join(root, 'xdist'));
    // A folder without __init__.py is no package.
    expect(findProgram('xdist', { PATH: '' }, { pythonModuleIn: root })).toBeUndefined();
    writeFileSync(join(root, 'xdist', '__init__.py'), '');
    expect(findProgram('xdist', { PATH: '' }, { pythonModuleIn: root })).toBe(join(root, 'xdist'));
  });

  it('missing: the loud line names the module and its Debian package; under CI it throws', () => {
    const none = join(root, 'no-dist-packages');
    const lines: string[] = [];
    expect(programOrSkip('xdist', { env: {}, pythonModuleIn: none, log: (line) => lines.push(line) })).toBe(
      undefined,
    );
    expect(lines).toEqual([
      `!!!! SKIPPED the testing guide's parallel pytest suite, \`pytest-3 -n 8\` (check:packages): no Python module xdist in ${none} (Debian's python3) on this machine; run \`sudo apt-get update && sudo apt-get install -y python3-pytest-xdist\` (or \`node scripts/system-packages.mjs\` as root)`,
    ]);
    expect(() => programOrSkip('xdist', { env: { CI: 'true' }, pythonModuleIn: none })).toThrow(
      /no Python module xdist .* on this machine, and CI skips nothing/,
    );
  });
});

describe('programOrSkip (what a test or check that needs a program calls)', () => {
  const bin = mkdtempSync(join(tmpdir(), 'system-packages-'));
  afterAll(() => rmSync(bin, { recursive: true, force: true }));
  const empty = { PATH: join(bin, 'nothing-here') };

  it('finds an installed program on the PATH', () => {
    writeFileSync(join(bin, 'redis-server'), '#!/bin/sh\n');
    chmodSync(join(bin, 'redis-server'), 0o755);
    expect(findProgram('redis-server', { PATH: bin })).toBe(join(bin, 'redis-server'));
    expect(programOrSkip('redis-server', { env: { PATH: bin }, log: () => expect.fail('logged') })).toBe(
      join(bin, 'redis-server'),
    );
  });

  it('missing outside CI: returns undefined after one loud line saying what to run', () => {
    const lines: string[] = [];
    expect(programOrSkip('redis-server', { env: empty, log: (line) => lines.push(line) })).toBeUndefined();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('SKIPPED the Redis fleet test (packages/redis-gate): no redis-server');
    expect(lines[0]).toContain('`sudo apt-get update && sudo apt-get install -y redis-server`');
  });

  it('missing under CI: throws, so the test fails instead of skipping', () => {
    expect(() => programOrSkip('chromium', { env: { ...empty, CI: 'true' }, log: () => undefined })).toThrow(
      /cannot run the browser checks of check:docs-site and the mock's watch page \(test:unit\): no chromium on this machine, and CI skips nothing/,
    );
  });

  it('knows only the listed programs, and reads CI as CI services set it', () => {
    expect(() => programOrSkip('nginx', { env: empty })).toThrow(/not in SYSTEM_PROGRAMS/);
    expect([
      isCI({ CI: 'true' }),
      isCI({ CI: '1' }),
      isCI({ CI: 'false' }),
      isCI({ CI: '' }),
      isCI({}),
    ]).toEqual([true, true, false, false, false]);
  });
});
