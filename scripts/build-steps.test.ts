// The order of `npm run build`: each package after the workspace packages its sources import, the others side
// by side.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSteps, workspaceManifests } from './build-steps.mjs';
import { checkGraph } from './run-steps.mjs';

describe('buildSteps', () => {
  it('builds a package after its dependencies and peers, not after its dev dependencies', () => {
    const steps = buildSteps([
      { name: 'base', scripts: { build: 'tsup' } },
      { name: 'server', scripts: { build: 'tsup' }, dependencies: { base: '^1', other: '^2' } },
      {
        name: 'client',
        scripts: { build: 'tsup' },
        dependencies: { base: '^1' },
        devDependencies: { server: '^1' },
      },
      {
        name: 'plugin',
        scripts: { build: 'tsup' },
        peerDependencies: { client: '*' },
        dependencies: { client: '*' },
      },
    ] as Parameters<typeof buildSteps>[0]);
    expect(steps).toEqual([
      { name: 'base', command: ['npm', 'run', 'build', '--workspace=base'] },
      { name: 'server', command: ['npm', 'run', 'build', '--workspace=server'], after: ['base'] },
      { name: 'client', command: ['npm', 'run', 'build', '--workspace=client'], after: ['base'] },
      { name: 'plugin', command: ['npm', 'run', 'build', '--workspace=plugin'], after: ['client'] },
    ]);
  });

  it('leaves out a package without a build script, and does not wait for it', () => {
    const steps = buildSteps([
      { name: 'types-only' },
      { name: 'lib', scripts: { build: 'tsup' }, dependencies: { 'types-only': '*' } },
    ]);
    expect(steps).toEqual([{ name: 'lib', command: ['npm', 'run', 'build', '--workspace=lib'] }]);
  });

  it("orders this repository's packages: the contract, then the mock server beside the SDK, then the CLI beside the Redis gate", () => {
    const steps = buildSteps(workspaceManifests(path.resolve(import.meta.dirname, '..')));
    checkGraph(steps);
    expect(Object.fromEntries(steps.map((step) => [step.name, step.after ?? []]))).toEqual({
      '@company-data/contract': [],
      '@company-data/mock-server': ['@company-data/contract'],
      '@company-data/sdk': ['@company-data/contract'],
      '@company-data/cli': ['@company-data/contract', '@company-data/mock-server', '@company-data/sdk'],
      '@company-data/redis-gate': ['@company-data/sdk'],
    });
  });
});
