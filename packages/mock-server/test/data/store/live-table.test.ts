import { describe, expect, it } from 'vitest';
import type { ArrivalSource } from '../../../src/data/store/arrivals.js';
import { type ListFilter, LiveTable } from '../../../src/data/store/live-table.js';
import { compareRecords, MaterializedTable, type RecordView } from '../../../src/data/store/table.js';

// The overlay against a plain sorted array: every page of every list, in both orders, after each batch of
// seeded random inserts, updates (moving records between filter values) and deletes.

interface Item {
  id: string;
  created_at: string;
  kind: string;
}

const view: RecordView<Item> = { name: 'test', project: (item) => item };
const iso = (seconds: number) => new Date(Date.UTC(2026, 0, 1) + seconds * 1000).toISOString();

function seeded(seed: number) {
  let state = seed;
  return (bound: number) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return (state >>> 8) % bound;
  };
}

function pages(table: LiveTable<Item>, filters: ListFilter[], size: number, descending: boolean): Item[][] {
  const out: Item[][] = [];
  const { count } = table.page(filters, 0, 0, descending, view);
  for (let first = 0; first < count + size; first += size) {
    const { items } = table.page(filters, first, first + size, descending, view);
    out.push(JSON.parse(`[${items}]`));
  }
  return out;
}

function expected(model: Item[], filters: ListFilter[], size: number, descending: boolean): Item[][] {
  let list = model.filter((item) =>
    filters.every(([facet, value]) => String(item[facet as 'kind']) === value),
  );
  if (descending) list = [...list].reverse();
  const out: Item[][] = [];
  for (let first = 0; first < list.length + size; first += size) out.push(list.slice(first, first + size));
  return out;
}

describe('LiveTable', () => {
  it.each([0, 1, 40])('matches a sorted array after random changes (base of %i records)', (size) => {
    const next = seeded(size + 3);
    const base: Item[] = Array.from({ length: size }, (_, i) => ({
      id: `b${String(i).padStart(4, '0')}`,
      // Two records per second: ties broken by id.
      created_at: iso(Math.floor(i / 2) * 10),
      kind: next(3) === 0 ? 'a' : 'b',
    }));
    const table = new LiveTable(new MaterializedTable(base));
    // Ask for the filtered lists before any change, so some are built before changes and some after.
    table.page([['kind', 'a']], 0, 1, false, view);
    let model = [...base];
    let created = 0;
    for (let batch = 0; batch < 12; batch++) {
      for (let step = 0; step < 15; step++) {
        const choice = next(4);
        if (choice === 0 || model.length === 0) {
          const item = {
            id: `c${created++}`,
            created_at: iso(next(size * 5 + 20)),
            kind: next(2) === 0 ? 'a' : 'b',
          };
          table.insert(item);
          model.push(item);
        } else {
          const at = next(model.length);
          const target = model[at] as Item;
          if (choice === 1) {
            expect(table.remove(target.id)).toEqual(target);
            model.splice(at, 1);
          } else {
            const moved = { ...target, kind: target.kind === 'a' ? 'b' : 'a' };
            table.update(moved);
            model[at] = moved;
          }
        }
      }
      model = [...model].sort((x, y) =>
        compareRecords(Date.parse(x.created_at), x.id, Date.parse(y.created_at), y.id),
      );
      expect(table.size).toBe(model.length);
      for (const filters of [
        [],
        [['kind', 'a']],
        [['kind', 'b']],
        [
          ['kind', 'a'],
          ['kind', 'a'],
        ],
      ] as ListFilter[][])
        for (const descending of [false, true])
          for (const pageSize of [1, 3, 7])
            expect(
              pages(table, filters, pageSize, descending),
              `${JSON.stringify(filters)} ${descending} ${pageSize}`,
            ).toEqual(expected(model, filters, pageSize, descending));
      model.forEach((item, rank) => {
        expect(table.at(rank)).toEqual(item);
        expect(table.find(item.id)).toEqual(item);
      });
    }
  });

  it('holds arrivals (generated again from their place) beside stored records, as a sorted array would', () => {
    const next = seeded(11);
    // Arrival n: a lower-case uuid from n (so the ids of one second sort apart from arrival order), its kind
    // from its detail, and, with its scheduled change, the other kind.
    const source: ArrivalSource<Item, string> = {
      id: (n) =>
        `${((n * 2_654_435_761) >>> 0).toString(16).padStart(8, '0')}-0000-4000-8000-${String(n).padStart(12, '0')}`,
      record: (n, atMs, detail, later) => ({
        id: source.id(n),
        created_at: iso(Math.floor(atMs / 1000) - Date.UTC(2026, 0, 1) / 1000),
        kind: (detail === 0) !== later ? 'a' : 'b',
      }),
      companion: (n) => `companion of ${n}`,
    };
    const base: Item[] = Array.from({ length: 30 }, (_, i) => ({
      id: `b${String(i).padStart(4, '0')}`,
      created_at: iso(i * 10),
      kind: i % 3 === 0 ? 'a' : 'b',
    }));
    const table = new LiveTable<Item, string>(new MaterializedTable(base));
    table.page([['kind', 'b']], 0, 1, false, view);
    const model = [...base];
    let arrived = 0;
    let atMs = Date.UTC(2026, 0, 1) + 400_000;
    const revisions = new Map<string, number>();
    for (let step = 0; step < 600; step++) {
      const choice = next(10);
      if (choice < 5 || model.length === 0) {
        // Several arrivals a second, in time order.
        atMs += next(400);
        const n = arrived++;
        const item = source.record(n, atMs, next(2), false);
        table.arrive(source, n, atMs, item.kind === 'a' ? 0 : 1, item);
        model.push(item);
      } else if (choice === 5) {
        const item = { id: `c${step}`, created_at: iso(next(2000)), kind: 'a' };
        table.insert(item);
        model.push(item);
      } else {
        const at = next(model.length);
        const target = model[at] as Item;
        revisions.set(target.id, table.revision(target.id));
        if (choice === 6) {
          expect(table.remove(target.id)).toEqual(target);
          model.splice(at, 1);
        } else {
          const moved = { ...target, kind: target.kind === 'a' ? 'b' : 'a' };
          expect(table.update(moved)).toEqual(target);
          model[at] = moved;
          expect(table.revision(target.id)).not.toBe(revisions.get(target.id));
        }
      }
    }
    model.sort((x, y) => compareRecords(Date.parse(x.created_at), x.id, Date.parse(y.created_at), y.id));
    expect(table.size).toBe(model.length);
    const isArrival = (item: Item) => /^[0-9a-f]{8}-/.test(item.id);
    expect(table.arrived).toBe(model.filter(isArrival).length);
    for (const filters of [[], [['kind', 'a']], [['kind', 'b']]] as ListFilter[][])
      for (const descending of [false, true])
        expect(pages(table, filters, 7, descending), `${JSON.stringify(filters)} ${descending}`).toEqual(
          expected(model, filters, 7, descending),
        );
    model.forEach((item, rank) => {
      expect(table.at(rank)).toEqual(item);
      expect(table.find(item.id)).toEqual(item);
    });
    const kept = model.find(isArrival) as Item;
    expect(table.companion(kept.id)).toBe(`companion of ${Number(kept.id.slice(-12))}`);
    expect(table.companion(base[0]?.id as string)).toBeUndefined();
  });

  it('versions a list only when a change touches it', () => {
    const table = new LiveTable(
      new MaterializedTable([
        { id: 'x', created_at: iso(0), kind: 'a' },
        { id: 'y', created_at: iso(1), kind: 'b' },
      ]),
    );
    const versions = () => [
      table.version([]),
      table.version([['kind', 'a']]),
      table.version([['kind', 'b']]),
    ];
    const start = versions();
    table.update({ id: 'x', created_at: iso(0), kind: 'a' });
    const [all, a, b] = versions();
    expect([all === start[0], a === start[1], b === start[2]]).toEqual([false, false, true]);
    table.update({ id: 'x', created_at: iso(0), kind: 'b' });
    const after = versions();
    expect([after[1] === a, after[2] === b]).toEqual([false, false]);
    expect(table.revision('y')).toBe(0);
    expect(table.revision('x')).toBeGreaterThan(0);
  });
});
