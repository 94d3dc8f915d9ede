import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import lockfile from 'proper-lockfile';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CopyError, CopyLockedError, DestinationRefusedError, LockLostError } from '../src/copy/errors.js';
import { holderPathOf } from '../src/copy/file-lock.js';
import { NdjsonCopy, progressPathOf, readProgress } from '../src/copy/ndjson-copy.js';

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
    const copy = await NdjsonCopy.open(file);
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
    const first = await NdjsonCopy.open(file);
    await first.write({ changes: created('a'), checkpoint: 'cp-1' });
    await first.close();
    writeFileSync(file, '{"id":"a"}\n{"id":"b"}\n{"id":"c', { flag: 'w' });

    const second = await NdjsonCopy.open(file);
    expect(second.resumed).toEqual({ checkpoint: 'cp-1', bytes: 11, records: 1, complete: false });
    expect(second.checkpoint).toBe('cp-1');
    expect(second.droppedBytes).toBe('{"id":"b"}\n{"id":"c'.length);
    await second.write({ changes: created('b'), checkpoint: 'cp-2' });
    await second.close();
    expect(readFileSync(file, 'utf8')).toBe('{"id":"a"}\n{"id":"b"}\n');
    expect(await readProgress(progressFile)).toMatchObject({ checkpoint: 'cp-2', records: 2, bytes: 22 });
  });

  it("refuses a file of the user's (data, no progress file), leaving it byte for byte and creating nothing", async () => {
    writeFileSync(file, '{"mine":1}\n');
    const before = statSync(file);
    const refused = await NdjsonCopy.open(file).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DestinationRefusedError);
    expect((refused as Error).message).toBe(
      `${file} already holds 11 bytes, and no progress file (${progressFile}) says a copy wrote them: it was left untouched. Give another file name, or move it away.`,
    );
    expect(readFileSync(file, 'utf8')).toBe('{"mine":1}\n');
    expect(statSync(file).mtimeMs).toBe(before.mtimeMs);
    // No progress file, no lock, no holder: only the user's file.
    expect(readdirSync(dir)).toEqual(['calls.ndjson']);
  });

  it('takes an empty file, and creates a new one (and its progress) only with the first page', async () => {
    writeFileSync(file, '');
    const empty = await NdjsonCopy.open(file);
    await empty.write({ changes: created('a'), checkpoint: 'cp-1' });
    await empty.close();
    expect(readFileSync(file, 'utf8')).toBe('{"id":"a"}\n');

    const other = join(dir, 'users.ndjson');
    const copy = await NdjsonCopy.open(other);
    expect(readdirSync(dir).sort()).toEqual([
      'calls.ndjson',
      'calls.ndjson.checkpoint',
      'users.ndjson.lock',
      'users.ndjson.lock.json',
    ]);
    await copy.close();
    // Opened and closed without a page: nothing of it stays.
    expect(readdirSync(dir).sort()).toEqual(['calls.ndjson', 'calls.ndjson.checkpoint']);

    // A page with no record (an empty list) still makes the file: the progress records its 0 bytes.
    const teams = await NdjsonCopy.open(other);
    await teams.complete('cp-end');
    await teams.close();
    expect(readFileSync(other, 'utf8')).toBe('');
    expect(await readProgress(progressPathOf(other))).toEqual({
      checkpoint: 'cp-end',
      bytes: 0,
      records: 0,
      complete: true,
    });
  });

  it('refuses a file that something else wrote between the open and the first page', async () => {
    const copy = await NdjsonCopy.open(file);
    writeFileSync(file, 'theirs\n');
    await expect(copy.write({ changes: created('a'), checkpoint: 'cp-1' })).rejects.toThrow(
      `${file} already holds 7 bytes, and no progress file (${progressFile}) says a copy wrote them: it was left untouched. Give another file name, or move it away.`,
    );
    await copy.close();
    expect(readFileSync(file, 'utf8')).toBe('theirs\n');
    expect(existsSync(progressFile)).toBe(false);
  });

  it('names a missing folder, a folder given as the file and a file given as the folder, creating nothing', async () => {
    await expect(NdjsonCopy.open(join(dir, 'nodir', 'x.ndjson'))).rejects.toThrow(
      new DestinationRefusedError(
        `the folder ${join(dir, 'nodir')} does not exist: create it, or give a file in a folder that exists.`,
      ),
    );
    mkdirSync(join(dir, 'adir'));
    await expect(NdjsonCopy.open(join(dir, 'adir'), { list: 'users' })).rejects.toThrow(
      new DestinationRefusedError(
        `${join(dir, 'adir')} is a folder: give a file, e.g. ${join(dir, 'adir', 'users.ndjson')}.`,
      ),
    );
    writeFileSync(join(dir, 'afile'), '');
    await expect(NdjsonCopy.open(join(dir, 'afile', 'x.ndjson'))).rejects.toThrow(
      new DestinationRefusedError(
        `${join(dir, 'afile')} is a file, not a folder: give a file in a folder that exists.`,
      ),
    );
    // A progress file kept elsewhere, in a folder that is not there.
    await expect(
      NdjsonCopy.open(file, { progressFile: join(dir, 'state', 'calls.checkpoint') }),
    ).rejects.toThrow(
      `the folder ${join(dir, 'state')} does not exist: create it, or give a file in a folder that exists.`,
    );
    expect(readdirSync(dir).sort()).toEqual(['adir', 'afile']);
    expect(readdirSync(join(dir, 'adir'))).toEqual([]);
  });

  it('says so when the file its progress counts was moved away', async () => {
    const copy = await NdjsonCopy.open(file);
    await copy.write({ changes: created('a'), checkpoint: 'cp-1' });
    await copy.close();
    rmSync(file);
    await expect(NdjsonCopy.open(file)).rejects.toThrow(
      new CopyError(
        `${file} does not exist, but ${progressFile} says 11 bytes were written: it was moved or deleted. Put it back, or delete ${progressFile} to start over with a full export.`,
      ),
    );
  });

  it('refuses a file shorter than its progress, and a progress file it did not write', async () => {
    const copy = await NdjsonCopy.open(file);
    await copy.write({ changes: created('a'), checkpoint: 'cp-1' });
    await copy.close();
    writeFileSync(file, '');
    await expect(NdjsonCopy.open(file)).rejects.toThrow(
      new CopyError(
        `${file} holds 0 bytes, but ${progressFile} says 11 were written: the file was changed by something else. Delete (or move away) ${file} and ${progressFile} to start over with a full export.`,
      ),
    );
    for (const foreign of [
      'not json',
      '{"checkpoint": 3}',
      '{"checkpoint":"x","bytes":-1,"records":0,"complete":false}',
    ]) {
      writeFileSync(progressFile, foreign);
      await expect(NdjsonCopy.open(file)).rejects.toThrow(
        `${progressFile} is not the progress file of an NDJSON copy; delete it to start over with a full export (and the output it belongs to, or move both away).`,
      );
    }
  });

  it('writes to stdout without recording a length, and without any progress file', async () => {
    const chunks: string[] = [];
    const stdout = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk.toString());
        done();
      },
    });
    const copy = await NdjsonCopy.open(undefined, { stdout });
    await copy.write({ changes: created('a'), checkpoint: 'cp-1' });
    await copy.close();
    expect(chunks).toEqual(['{"id":"a"}\n']);
    expect(copy.records).toBe(1);
    expect(copy.checkpoint).toBe('cp-1');
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('one run at a time', () => {
  it('refuses a second open of the same file at once, naming the holder, and lets it in once closed', async () => {
    const first = await NdjsonCopy.open(file, { lock: { command: 'first run' } });
    const holder = JSON.parse(readFileSync(holderPathOf(file), 'utf8'));
    expect(holder).toMatchObject({ pid: process.pid, host: hostname(), command: 'first run' });
    const refused = await NdjsonCopy.open(file).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(CopyLockedError);
    expect((refused as CopyLockedError).holder).toEqual({
      pid: process.pid,
      host: hostname(),
      since: holder.since,
      command: 'first run',
    });
    expect((refused as Error).message).toBe(
      `${file} is being copied by another run: pid ${process.pid} on ${hostname()} (first run), since ${holder.since}. Run again once it is done, or pass --wait <duration> to wait for it.`,
    );
    await first.close();
    const second = await NdjsonCopy.open(file);
    await second.close();
    // Neither wrote a page: no file is left, nor a lock.
    expect(readdirSync(dir)).toEqual([]);
  });

  it('gives a holder that has just taken the lock the moment it needs to name itself', async ({
    onTestFinished,
  }) => {
    // What a run that has taken the lock but not yet written its name leaves; it names itself soon after.
    const release = await lockfile.lock(file, { realpath: false });
    onTestFinished(() => release());
    const holder = { pid: 4242, host: 'worker-1', since: '2026-11-29T03:00:00.000Z', command: 'cron' };
    setTimeout(() => writeFileSync(holderPathOf(file), JSON.stringify({ ...holder, token: 't' })), 300);
    const refused = await NdjsonCopy.open(file).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(CopyLockedError);
    expect((refused as CopyLockedError).holder).toEqual(holder);
  });

  it('stops writing once another run took the lock over', async () => {
    const copy = await NdjsonCopy.open(file);
    await copy.write({ changes: created('a'), checkpoint: 'cp-1' });
    // What a run that found the lock stale leaves: its own holder file.
    writeFileSync(
      holderPathOf(file),
      JSON.stringify({ pid: 1, host: 'elsewhere', since: 'now', token: 'theirs' }),
    );
    await expect(copy.write({ changes: created('b'), checkpoint: 'cp-2' })).rejects.toBeInstanceOf(
      LockLostError,
    );
    await copy.close();
    expect(readFileSync(file, 'utf8')).toBe('{"id":"a"}\n');
    expect(await readProgress(progressFile)).toMatchObject({ checkpoint: 'cp-1', records: 1 });
    // The other run's holder file is not ours to remove.
    expect(existsSync(holderPathOf(file))).toBe(true);
  });

  it('waits for the holder when told to, and takes the lock once it is released', async () => {
    const first = await NdjsonCopy.open(file);
    let waitedFor: unknown;
    const second = NdjsonCopy.open(file, {
      lock: {
        wait: 60_000,
        onWait: (holder) => {
          waitedFor = holder?.pid;
          void first.close();
        },
      },
    });
    const copy = await second;
    expect(waitedFor).toBe(process.pid);
    await copy.close();
  });
});
