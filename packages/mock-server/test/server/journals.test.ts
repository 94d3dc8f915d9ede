import { afterEach, describe, expect, it } from 'vitest';
import { BoundedJournal, objectStore } from '../../src/data/journal/bounded-journal.js';
import { changeJournal, type RecordedChange } from '../../src/data/record-controls/change-journal.js';
import { createMockServer, type MockServer } from '../../src/index.js';
import { type EngineHarness, engineHarness } from '../support/engine.js';

// Both journals keep at most `journalLimit` entries, the newest, count those they dropped, and are read in
// pages after a `seq`: in code (`server.journals`, `journal()`, `changes()`) and over the admin API.

const MINUTE = 60_000;

describe('a bounded journal', () => {
  const journal = (limit: number) =>
    new BoundedJournal(
      limit,
      objectStore((text: string, seq) => ({ seq, text })),
    );
  const seqs = (entries: readonly { seq: number }[]) => entries.map((entry) => entry.seq);

  it('keeps the newest entries up to its limit and counts those it dropped', () => {
    const five = journal(3);
    for (const text of ['a', 'b', 'c', 'd', 'e']) five.add(text);
    expect(five.entries()).toEqual([
      { seq: 3, text: 'c' },
      { seq: 4, text: 'd' },
      { seq: 5, text: 'e' },
    ]);
    expect(five.stats()).toEqual({ limit: 3, held: 3, dropped: 2, lastSeq: 5 });
  });

  it('reads after a seq, in pages, and says what a reader missed', () => {
    const j = journal(3);
    for (let index = 0; index < 5; index++) j.add(String(index));
    // Entries 2 and 3 came after seq 1 but were dropped: a reader that last saw seq 1 missed them.
    expect(j.read({ since: 1 })).toEqual({
      data: [
        { seq: 3, text: '2' },
        { seq: 4, text: '3' },
        { seq: 5, text: '4' },
      ],
      dropped: 2,
      missed: 1,
      more: false,
    });
    expect(j.read({ since: 3, limit: 1 })).toEqual({
      data: [{ seq: 4, text: '3' }],
      dropped: 2,
      missed: 0,
      more: true,
    });
    expect(j.read({ since: 4, limit: 1 })).toMatchObject({ data: [{ seq: 5 }], more: false });
    expect(j.read({ since: 5 })).toEqual({ data: [], dropped: 2, missed: 0, more: false });
    expect(seqs(j.read({ since: 99 }).data)).toEqual([]);
  });

  it('keeps none with 0 (every entry dropped), all with Infinity, and starts again when emptied', () => {
    const none = journal(0);
    none.add('a');
    none.add('b');
    expect(none.read()).toEqual({ data: [], dropped: 2, missed: 2, more: false });
    const all = journal(Number.POSITIVE_INFINITY);
    for (let index = 0; index < 25_000; index++) all.add('x');
    expect(all.stats()).toEqual({ limit: null, held: 25_000, dropped: 0, lastSeq: 25_000 });
    all.clear();
    expect(all.stats()).toEqual({ limit: null, held: 0, dropped: 0, lastSeq: 0 });
    all.add('y');
    expect(all.entries()).toEqual([{ seq: 1, text: 'y' }]);
  });

  it.each([
    [
      { since: -1 },
      'since must be a whole number from 0: the seq of the last entry you read (0 for the oldest held), got -1',
    ],
    [{ since: 1.5 }, 'since must be a whole number from 0'],
    [{ limit: 0 }, 'limit must be a whole number from 1: the most entries to read at once, got 0'],
  ])('refuses to read %j, saying what it must be', (options, message) => {
    expect(() => journal(3).read(options)).toThrow(message);
  });

  it.each([-1, 2.5, Number.NaN])('refuses a limit of %s, saying what it must be', (limit) => {
    expect(() => journal(limit)).toThrow(
      `journalLimit must be a whole number from 0 (none kept), or Infinity to keep every entry, got ${limit}`,
    );
  });
});

describe('the change journal', () => {
  it('gives back each change as recorded, whatever its id, company and fields', () => {
    const journal = changeJournal(3);
    const changes: RecordedChange[] = [
      {
        atMs: 1,
        company: 'c1',
        resource: 'calls',
        id: '0b6f3c1e-0000-4abc-8def-0123456789ab',
        kind: 'created',
        origin: 'activity',
      },
      {
        atMs: 2,
        company: 'c2',
        resource: 'users',
        id: 'F0000000-0000-4000-8000-00000000000A',
        kind: 'updated',
        fields: ['first_name', 'full_name'],
        origin: 'control',
      },
      { atMs: 3.5, company: 'c1', resource: 'teams', id: 'team-1', kind: 'deleted', origin: 'control' },
      {
        atMs: 4,
        company: 'c1',
        resource: 'recordings',
        id: 'ffffffff-ffff-4fff-bfff-ffffffffffff',
        kind: 'updated',
        fields: ['score'],
        origin: 'activity',
      },
    ];
    for (const change of changes) journal.add(change);
    // The first was dropped; the place it held now holds the last.
    expect(journal.entries()).toEqual(
      changes.slice(1).map(({ atMs, fields, ...change }, index) => ({
        seq: index + 2,
        at: new Date(atMs).toISOString(),
        ...change,
        ...(fields === undefined ? {} : { fields }),
      })),
    );
    expect(Object.keys(journal.entries()[0] ?? {})).toEqual([
      'seq',
      'at',
      'company',
      'resource',
      'id',
      'kind',
      'fields',
      'origin',
    ]);
  });
});

describe('the journals of a server', () => {
  const harnesses: EngineHarness[] = [];
  afterEach(async () => {
    await Promise.all(harnesses.splice(0).map((h) => h.close()));
  });
  function start(journalLimit?: number): EngineHarness {
    const h = engineHarness({
      journalLimit,
      activity: {
        callsPerMinute: 60,
        excusedShare: 0,
        deactivationsPerDay: 0,
        recordingsPerHour: 0,
        callDeletionsPerHour: 0,
      },
    });
    harnesses.push(h);
    return h;
  }
  const teams = (h: EngineHarness, page: number) =>
    h.send({ path: `/v1/teams/?page=${page}`, headers: { authorization: `Bearer ${h.server.keys.valid}` } });
  const admin = (h: EngineHarness, path: string, method = 'GET') =>
    h.send({ method, path: `/__admin/${path}`, headers: { authorization: `Bearer ${h.server.adminToken}` } });

  it('bounds both journals by journalLimit, each counting what it dropped', async () => {
    const h = start(4);
    for (let page = 1; page <= 6; page++) await teams(h, page);
    h.server.clock.advance(10 * MINUTE);
    const { requests, changes } = h.server.journals;
    expect(h.server.journal().map((entry) => [entry.seq, entry.query.page])).toEqual([
      [3, '3'],
      [4, '4'],
      [5, '5'],
      [6, '6'],
    ]);
    expect(requests.stats()).toEqual({ limit: 4, held: 4, dropped: 2, lastSeq: 6 });
    // About 600 calls arrived; the newest 4 are kept.
    const arrived = changes.stats();
    expect(arrived.lastSeq).toBeGreaterThan(500);
    expect(arrived).toEqual({ limit: 4, held: 4, dropped: arrived.lastSeq - 4, lastSeq: arrived.lastSeq });
    expect(h.server.changes().map((change) => change.seq)).toEqual([
      arrived.lastSeq - 3,
      arrived.lastSeq - 2,
      arrived.lastSeq - 1,
      arrived.lastSeq,
    ]);
  });

  it('reads only what is new in a long run, in code and over the admin API', async () => {
    const h = start();
    const server: MockServer = h.server;
    h.server.clock.advance(5 * MINUTE);
    const first = server.journals.changes.read();
    expect(first.data.length).toBeGreaterThan(200);
    const seen = first.data.at(-1)?.seq as number;
    h.server.clock.advance(5 * MINUTE);
    const next = server.changes({ since: seen });
    expect(next[0]?.seq).toBe(seen + 1);
    expect(next.at(-1)?.seq).toBe(server.journals.changes.stats().lastSeq);
    // The same over HTTP, in pages of 100.
    const paged: number[] = [];
    for (let since = seen, more = true; more; ) {
      const { json } = await admin(h, `changes?since=${since}&limit=100`);
      expect(json.data.length).toBeLessThanOrEqual(100);
      paged.push(...json.data.map((change: { seq: number }) => change.seq));
      more = json.more;
      since = json.data.at(-1)?.seq ?? since;
    }
    expect(paged).toEqual(next.map((change) => change.seq));
    await teams(h, 1);
    await teams(h, 2);
    const { json: requests } = await admin(h, 'journal?since=1');
    expect(requests).toEqual({
      data: [expect.objectContaining({ seq: 2, query: { page: '2' } })],
      dropped: 0,
      missed: 0,
      more: false,
    });
  });

  it('tells a reader that came back too late what it missed', async () => {
    const h = start(100);
    h.server.clock.advance(MINUTE);
    const seen = h.server.journals.changes.stats().lastSeq;
    h.server.clock.advance(10 * MINUTE);
    const { json } = await admin(h, `changes?since=${seen}`);
    const last = h.server.journals.changes.stats().lastSeq;
    expect(json.data).toHaveLength(100);
    expect(json.missed).toBe(last - seen - 100);
    expect(json.dropped).toBe(last - 100);
  });

  it.each([
    [
      'journal?since=abc',
      'since must be a whole number from 0: the seq of the last entry you read (0 for the oldest held), got "abc"',
    ],
    [
      'changes?since=-2',
      'since must be a whole number from 0: the seq of the last entry you read (0 for the oldest held), got "-2"',
    ],
    ['changes?limit=0', 'limit must be a whole number from 1: the most entries to read at once, got "0"'],
    ['journal?limit=ten', 'limit must be a whole number from 1: the most entries to read at once, got "ten"'],
  ])('answers GET /__admin/%s with a 400 saying what to send', async (path, detail) => {
    const h = start();
    const response = await admin(h, path);
    expect(response.status).toBe(400);
    expect(response.json).toEqual({ error: { detail } });
  });

  it('empties each journal on its own, numbering from 1 again', async () => {
    const h = start(2);
    for (let page = 1; page <= 3; page++) await teams(h, page);
    await admin(h, 'journal', 'DELETE');
    expect(h.server.journals.requests.stats()).toEqual({ limit: 2, held: 0, dropped: 0, lastSeq: 0 });
    await teams(h, 1);
    expect(h.server.journal().map((entry) => entry.seq)).toEqual([1]);
  });

  it('refuses a journalLimit out of bounds when the server is made', () => {
    expect(() => createMockServer({ journalLimit: -1 })).toThrow(
      'journalLimit must be a whole number from 0 (none kept), or Infinity to keep every entry, got -1',
    );
    expect(
      createMockServer({ journalLimit: Number.POSITIVE_INFINITY }).journals.changes.stats().limit,
    ).toBeNull();
  });
});
