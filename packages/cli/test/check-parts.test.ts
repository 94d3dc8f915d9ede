// The parts of `company-data check` that need no server: the ids a report names, the checkpoint's mark, the
// hash a file's line is kept as, and the summary of a drift larger than the ids it names.
import { describe, expect, it } from 'vitest';
import type { CheckReport } from '../src/check/check-copy.js';
import { markOf } from '../src/check/copy-mark.js';
import { Finding, newFindings } from '../src/check/findings.js';
import { formatCheckReport } from '../src/check/format.js';
import { recordHash } from '../src/check/record-hash.js';
import { CopyError } from '../src/copy/errors.js';

const checkpoint = (mark: unknown, walk: unknown = null) =>
  JSON.stringify({
    checkpoint: 'company-data sync checkpoint',
    version: 1,
    list: 'calls',
    filters: {},
    mark,
    window: null,
    walk,
  });

describe('Finding', () => {
  it('counts every id and keeps the five smallest, in order, whatever order they came in', () => {
    const finding = new Finding();
    for (const id of ['g', 'c', 'a', 'f', 'b', 'e', 'd']) finding.add(id);
    expect(finding.toJSON()).toEqual({ count: 7, ids: ['a', 'b', 'c', 'd', 'e'] });
    expect(newFindings().gone.toJSON()).toEqual({ count: 0, ids: [] });
  });
});

describe('markOf', () => {
  it('tells records past the mark (after its instant, or at it and not among its ids) as the sync does', () => {
    const mark = markOf(checkpoint({ at: '2026-06-01T10:00:00.000Z', ids: ['b'] }), 'calls.ndjson');
    expect(mark.isNewer({ id: 'a', created_at: '2026-06-01T10:00:01Z' })).toBe(true);
    expect(mark.isNewer({ id: 'a', created_at: '2026-06-01T10:00:00Z' })).toBe(true);
    expect(mark.isNewer({ id: 'b', created_at: '2026-06-01T10:00:00Z' })).toBe(false);
    expect(mark.isNewer({ id: 'c', created_at: '2026-06-01T09:59:59Z' })).toBe(false);
    // An export of an empty list has no mark: whatever came since is newer.
    expect(
      markOf(checkpoint(null), 'calls.ndjson').isNewer({ id: 'a', created_at: '2020-01-01T00:00:00Z' }),
    ).toBe(true);
  });

  it('refuses a text that is no checkpoint, and one of a run under way', () => {
    expect(() => markOf('{"mark": 3}', 'company_data.calls')).toThrow(
      new CopyError('The checkpoint of company_data.calls is not a sync checkpoint: export the list again.'),
    );
    expect(() => markOf('not json', 'calls.ndjson')).toThrow(CopyError);
    expect(() => markOf(checkpoint(null, { top: {} }), 'calls.ndjson')).toThrow(
      'The checkpoint of calls.ndjson is of a run under way, though the copy says it completed: export the list again.',
    );
  });
});

describe('recordHash', () => {
  it('is the same for deep-equal records whatever the order of their keys, and differs with a value', () => {
    const call = { id: 'a', user: { id: 'u', full_name: 'Ada' }, tags: [1, { b: 2, a: 1 }], gone: undefined };
    const reordered = { tags: [1, { a: 1, b: 2 }], user: { full_name: 'Ada', id: 'u' }, id: 'a' };
    expect(recordHash(call)).toBe(recordHash(reordered));
    expect(recordHash({ ...reordered, user: { full_name: 'Ada L.', id: 'u' } })).not.toBe(
      recordHash(reordered),
    );
    expect(recordHash([undefined])).toBe(recordHash([null]));
  });
});

describe('formatCheckReport', () => {
  it('names the first ids of a kind and how many more there are', () => {
    const gone = new Finding();
    for (const id of ['id1', 'id2', 'id3', 'id4', 'id5', 'id6', 'id7']) gone.add(id);
    const none = { count: 0, ids: [] };
    const report: CheckReport = {
      list: 'calls',
      destination: 'company_data.calls',
      outcome: 'done',
      equal: false,
      repaired: false,
      listed: 233,
      copied: 240,
      missing: none,
      gone: gone.toJSON(),
      stale: none,
      duplicated: none,
      newer: none,
      skipped: none,
    };
    expect(formatCheckReport(report, { repair: false, fix: 'Run the same command with --repair.' })).toBe(
      [
        'Checked company_data.calls against the list: 233 calls read, 240 in the copy.',
        '  gone             7  in the copy, deleted from the list: id1, id2, id3, id4, id5, … (2 more)',
        'The copy differs from the list. Run the same command with --repair.',
        '',
      ].join('\n'),
    );
    expect(formatCheckReport({ ...report, outcome: 'interrupted' }, { repair: true, fix: '' })).toMatch(
      /\nInterrupted: the check is incomplete\. What the repair stored stays; run the same command again\.\n$/,
    );
  });
});
