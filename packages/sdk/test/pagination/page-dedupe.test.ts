import { describe, expect, it } from 'vitest';
import { NeighbourPageDeduper, PageBoundaryDeduper } from '../../src/pagination/page-dedupe.js';

const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();
const item = (id: string, second: number) => ({ id, created_at: at(second) });

describe('PageBoundaryDeduper', () => {
  it('drops items a descending iteration already passed (pages shifted by head inserts)', () => {
    const dedupe = new PageBoundaryDeduper('-created_at');
    const page1 = [item('e', 50), item('d', 40), item('c', 30)];
    // Two records were created at the head: page 2 now repeats 'd' and 'c'.
    const page2 = [item('d', 40), item('c', 30), item('b', 20)];
    expect(page1.filter((x) => dedupe.accept(x)).map((x) => x.id)).toEqual(['e', 'd', 'c']);
    expect(page2.filter((x) => dedupe.accept(x)).map((x) => x.id)).toEqual(['b']);
    expect(dedupe.skipped).toBe(2);
  });

  it('skips records newer than the cursor in descending order (created after the iteration began)', () => {
    const dedupe = new PageBoundaryDeduper('-created_at');
    expect(dedupe.accept(item('a', 10))).toBe(true);
    expect(dedupe.accept(item('new', 99))).toBe(false);
    expect(dedupe.accept(item('older', 5))).toBe(true);
  });

  it('walks ascending lists the other way', () => {
    const dedupe = new PageBoundaryDeduper('created_at');
    expect(
      [item('a', 1), item('b', 2), item('b', 2), item('a', 1), item('c', 3)].map((x) => dedupe.accept(x)),
    ).toEqual([true, true, false, false, true]);
  });

  it('tells apart distinct items created in the same instant', () => {
    const dedupe = new PageBoundaryDeduper('-created_at');
    const same = [item('x', 7), item('y', 7), item('x', 7), item('z', 7)];
    expect(same.map((x) => dedupe.accept(x))).toEqual([true, true, false, true]);
  });

  it('falls back to recent ids when created_at is missing (validation off), with bounded memory', () => {
    const dedupe = new PageBoundaryDeduper('-created_at');
    expect(dedupe.accept({ id: 1 })).toBe(true);
    expect(dedupe.accept({ id: 1 })).toBe(false);
    expect(dedupe.accept(null)).toBe(true);
    expect(dedupe.accept({ created_at: 'not a date' })).toBe(true);
    for (let id = 2; id < 500; id++) dedupe.accept({ id });
    // Id 1 was forgotten long ago: the window is bounded.
    expect(dedupe.accept({ id: 1 })).toBe(true);
    expect(dedupe.accept({ id: 499 })).toBe(false);
  });
});

describe('NeighbourPageDeduper', () => {
  const ids = (...numbers: number[]) => numbers.map((id) => ({ id }));

  it('drops what a neighbouring page already yielded, in whatever order the pages come', () => {
    const dedupe = new NeighbourPageDeduper();
    expect(dedupe.keep(1, ids(1, 2, 3))).toEqual(ids(1, 2, 3));
    // Page 3 came before page 2, and repeats page 2's edge after two records were created at the head.
    expect(dedupe.keep(3, ids(6, 7, 8))).toEqual(ids(6, 7, 8));
    expect(dedupe.keep(2, ids(2, 3, 4, 5, 6))).toEqual(ids(4, 5));
    // An id seen two pages away is not a neighbour's: kept (only a shift of more than a page repeats it).
    expect(dedupe.keep(4, ids(1, 9))).toEqual(ids(1, 9));
  });
});
