// The mock binary's release file rules and the guide blocks it runs, without building it (check:packages
// builds it once, in its release rehearsal, and runs it: scripts/check-packages.mjs).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { codeBlocks } from '../docs/markdown.mjs';
import { artefactName, artefactPaths } from './artefact.mjs';
import { checksumLine, checksumProblem, writeChecksum } from './checksum.mjs';
import { mockBinaryPlan } from './guide-blocks.mjs';
import { isRunning } from './processes.mjs';

const FENCE = '```';
const guide = (name: string, ...lines: string[]) => {
  const text = lines.join('\n');
  return { file: `docs/${name}.md`, name, text, blocks: codeBlocks(text) };
};

const temporary: string[] = [];
afterEach(() => {
  for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the release file', () => {
  it('is named with the version and the platform, .exe on Windows, its checksum file beside it', () => {
    expect(artefactName('0.2.0', 'linux', 'x64')).toBe('company-data-mock-0.2.0-linux-x64');
    expect(artefactName('0.2.0', 'darwin', 'arm64')).toBe('company-data-mock-0.2.0-darwin-arm64');
    expect(artefactName('0.2.0', 'win32', 'x64')).toBe('company-data-mock-0.2.0-win32-x64.exe');
    const { binary, checksum } = artefactPaths('/repo/release-artefacts', '0.2.0');
    expect(binary).toBe(path.join('/repo/release-artefacts', artefactName('0.2.0')));
    expect(checksum).toBe(`${binary}.sha256`);
  });

  it('writes its checksum as sha256sum does, and finds a file that no longer matches', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'company-data-sea-test-'));
    temporary.push(dir);
    const file = path.join(dir, 'company-data-mock-0.2.0-linux-x64');
    writeFileSync(file, 'abc');
    const digest = await writeChecksum(file, `${file}.sha256`);
    // sha256("abc"), as `printf abc | sha256sum` prints it.
    expect(digest).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(checksumLine(digest, 'x')).toBe(`${digest}  x\n`);
    expect(await checksumProblem(file, `${file}.sha256`)).toBeUndefined();
    writeFileSync(file, 'abd');
    expect(await checksumProblem(file, `${file}.sha256`)).toMatch(/says .* the file is/);
  });
});

describe('mockBinaryPlan', () => {
  it("takes the marked blocks' commands and every file of their guide, and skips other guides", () => {
    const plan = mockBinaryPlan([
      guide(
        'node-only',
        `${FENCE}sh`,
        'npx company-data-mock',
        FENCE,
        'Save this as `a.ts`:',
        `${FENCE}ts`,
        'x',
        FENCE,
      ),
      guide(
        'binary',
        'Save this as `tests/conftest.py`:', // 1
        `${FENCE}python`, // 2
        'import pytest', // 3
        FENCE, // 4
        `${FENCE}sh with-mock-binary`, // 5
        './company-data-mock --version', // 6
        'python3 -m pytest -q', // 7
        FENCE, // 8
        `${FENCE}sh with-mock-binary if-installed`, // 9
        'go test ./...', // 10
        FENCE, // 11
      ),
    ]);
    // Given in the tests' folder, saved by its name in it: the folder the binary is in, where the commands run.
    expect(plan.folder).toBe('tests');
    expect([...plan.files.keys()]).toEqual(['conftest.py']);
    expect(plan.commands).toEqual([
      {
        where: 'docs/binary.md:6',
        command: './company-data-mock --version',
        program: './company-data-mock',
        ifInstalled: false,
      },
      { where: 'docs/binary.md:7', command: 'python3 -m pytest -q', program: 'python3', ifInstalled: false },
      { where: 'docs/binary.md:10', command: 'go test ./...', program: 'go', ifInstalled: true },
    ]);
  });

  it('refuses files in more than one folder: the binary and the commands are in one', () => {
    const files = (...names: string[]) =>
      guide(
        'binary',
        ...names.flatMap((name) => [`Save this as \`${name}\`:`, `${FENCE}python`, 'x = 1', FENCE]),
        `${FENCE}sh with-mock-binary`,
        'python3 -m pytest -q',
        FENCE,
      );
    expect(mockBinaryPlan([files('conftest.py', 'test_x.py')]).folder).toBe('');
    expect(() => mockBinaryPlan([files('tests/conftest.py', 'test_x.py')])).toThrow(
      'docs/binary.md: its files are in tests, .: give them all in the one folder of the tests, where the binary is',
    );
  });

  it('refuses a command that needs Node, in a block for readers without it', () => {
    expect(() =>
      mockBinaryPlan([guide('oops', `${FENCE}sh with-mock-binary`, 'npx company-data-mock', FENCE)]),
    ).toThrow(/^docs\/oops\.md:2: `npx company-data-mock` needs Node/);
  });
});

it('isRunning: this process runs; a pid nobody has does not', () => {
  expect(isRunning(process.pid)).toBe(true);
  expect(isRunning(2 ** 22 + 1)).toBe(false);
});
