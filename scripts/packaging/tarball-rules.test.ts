import { describe, expect, it } from 'vitest';
import { checkTarballFiles } from './tarball-rules.mjs';

const library = [
  'package.json',
  'README.md',
  'LICENSE',
  'CHANGELOG.md',
  'dist/index.js',
  'dist/index.js.map',
  'dist/index.cjs',
  'dist/index.cjs.map',
  'dist/index.d.ts',
  'dist/index.d.cts',
  'dist/cli.js',
  'src/index.ts',
  'src/schemas/resources.ts',
  'src/fixture/load-fixture.ts',
];

describe('checkTarballFiles', () => {
  it('accepts the library build, its sources, the docs files and the declared extras', () => {
    expect(checkTarballFiles([...library, 'openapi.json'], { extraFiles: ['openapi.json'] })).toEqual({
      offending: [],
      missing: [],
    });
  });

  it.each([
    ['test/client.test.ts', 'test directory'],
    ['src/client.test.ts', 'test file'],
    ['dist/client.spec.js.map', 'test file'],
    ['src/types.test-d.ts', 'type test'],
    ['src/fixtures/company.json', 'test fixture'],
    ['src/fixture/example.json', 'test fixture'],
    ['coverage/index.html', 'coverage report'],
    ['tsup.config.ts', 'build or test config'],
    ['tsconfig.json', 'tooling config'],
    ['tsconfig.tsbuildinfo', 'compiler cache'],
    ['company-data-sdk-0.1.0.tgz', 'packed tarball'],
    ['.DS_Store', 'dotfile'],
    ['scripts/write-openapi.mjs', 'not in the list of files users need'],
    ['openapi.json', 'not in the list of files users need'],
  ])('flags %s as %s', (file, reason) => {
    expect(checkTarballFiles([...library, file]).offending).toEqual([{ path: file, reason }]);
  });

  it('lets a package ship a declared extra that would otherwise look like a fixture', () => {
    expect(
      checkTarballFiles([...library, 'fixtures/example.json'], { extraFiles: ['fixtures/example.json'] }),
    ).toEqual({
      offending: [],
      missing: [],
    });
  });

  it('reports the required files and declared extras that are missing', () => {
    expect(
      checkTarballFiles(['package.json', 'dist/index.js'], { extraFiles: ['openapi.json'] }).missing,
    ).toEqual(['README.md', 'LICENSE', 'openapi.json']);
  });
});
