import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CopyError, NdjsonCopy, progressPathOf, readProgress } from './ndjson-copy.js';

let dir: string;
let file: string;
let progressFile: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ndjson-copy-'));
  file = join(dir, 'calls.ndjson');
  progressFile = progressPathOf(file);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const created = (...ids: string[]) => ids.map((id) => ({ type: 'created' as const, record: { id } }));

describe('NdjsonCopy', () => {
  it('writes the created records of each page, then records the checkpoint and the length', async () => {
    const copy = await NdjsonCopy.open(file, progressFile);
    expect(copy.resumed).toBeUndefined();
    expect(copy.checkpoint).toBeUndefined();
    const written = await copy.write({
      changes: [
        ...created('a', 'b'),
        { type: 'changed', record: { id: 'old' } },
        { type: 'removed', id: 'gone' },
      ],
      checkpoint: 'cp-1',
    });
    expect(written).toEqual([{ id: 'a' }, { id: 'b' }]);
    await copy.write({ changes: created('c'), checkpoint: 'cp-2' });
    await copy.complete('cp-final');
    await copy.close();
    const text = readFileSync(file, 'utf8');
    expect(text).toBe('{"id":"a"}\n{"id":"b"}\n{"id":"c"}\n');
    expect(await readProgress(progressFile)).toEqual({
      checkpoint: 'cp-final',
      bytes: Buffer.byteLength(text),
      records: 3,
      complete: true,
    });
    // No temporary file is left beside it.
    expect(readdirSync(dir).sort()).toEqual(['calls.ndjson', 'calls.ndjson.checkpoint']);
  });

  it('resumes where the progress says, cutting off what a killed run wrote after it', async () => {
    const first = await NdjsonCopy.open(file, progressFile);
    await first.write({ changes: created('a'), checkpoint: 'cp-1' });
    await first.close();
    writeFileSync(file, '{"id":"a"}\n{"id":"b"}\n{"id":"c', { flag: 'w' });

    const second = await NdjsonCopy.open(file, progressFile);
    expect(second.resumed).toEqual({ checkpoint: 'cp-1', bytes: 11, records: 1, complete: false });
    expect(second.checkpoint).toBe('cp-1');
    expect(second.droppedBytes).toBe('{"id":"b"}\n{"id":"c'.length);
    await second.write({ changes: created('b'), checkpoint: 'cp-2' });
    await second.close();
    expect(readFileSync(file, 'utf8')).toBe('{"id":"a"}\n{"id":"b"}\n');
    expect(await readProgress(progressFile)).toMatchObject({ checkpoint: 'cp-2', records: 2, bytes: 22 });
  });

  it('starts an empty file without progress, whatever the file held', async () => {
    writeFileSync(file, 'old content\n');
    const copy = await NdjsonCopy.open(file, progressFile);
    await copy.close();
    expect(readFileSync(file, 'utf8')).toBe('');
    expect(existsSync(progressFile)).toBe(false);
  });

  it('refuses a file shorter than its progress, and a progress file it did not write', async () => {
    const copy = await NdjsonCopy.open(file, progressFile);
    await copy.write({ changes: created('a'), checkpoint: 'cp-1' });
    await copy.close();
    writeFileSync(file, '');
    await expect(NdjsonCopy.open(file, progressFile)).rejects.toThrow(
      new CopyError(
        `${file} holds 0 bytes, but ${progressFile} says 11 were written: the file was changed by something else. Delete ${progressFile} to start over with a full export.`,
      ),
    );
    for (const foreign of [
      'not json',
      '{"checkpoint": 3}',
      '{"checkpoint":"x","bytes":-1,"records":0,"complete":false}',
    ]) {
      writeFileSync(progressFile, foreign);
      await expect(NdjsonCopy.open(file, progressFile)).rejects.toThrow(
        `${progressFile} is not a progress file of these examples; delete it to start over with a full export.`,
      );
    }
  });

  it('writes to stdout without recording a length, and without any progress file', async () => {
    const copy = await NdjsonCopy.open(undefined, undefined);
    const chunks: string[] = [];
    const write = process.stdout.write;
    process.stdout.write = ((chunk: string) => chunks.push(chunk) > 0) as typeof process.stdout.write;
    try {
      await copy.write({ changes: created('a'), checkpoint: 'cp-1' });
    } finally {
      process.stdout.write = write;
    }
    expect(chunks).toEqual(['{"id":"a"}\n']);
    expect(copy.records).toBe(1);
    expect(copy.checkpoint).toBe('cp-1');
    expect(readdirSync(dir)).toEqual([]);
  });
});
