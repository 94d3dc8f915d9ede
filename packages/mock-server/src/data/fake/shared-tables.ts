/**
 * The generated tables of every world in the process, by what derives them. A generated table is a function
 * of its company's spec (secret, sizes, period) and never changes: a world keeps its record changes in a
 * `LiveTable` over it. So worlds of one seed, sizes and time (a server's sessions, a test file's servers)
 * share one table, its memoised records and its filter indexes, built once. A table lives as long as a
 * world uses it: the map holds it weakly.
 */
const tables = new Map<string, WeakRef<object>>();
const forget = new FinalizationRegistry<string>((key) => {
  if (tables.get(key)?.deref() === undefined) tables.delete(key);
});

/**
 * The table for this key, built by `build` when no world holds one.
 *
 * @param key - everything the table derives from, as text.
 * @param build - makes it.
 * @returns the table every caller with this key shares.
 */
export function sharedTable<Table extends object>(key: string, build: () => Table): Table {
  const found = tables.get(key)?.deref();
  if (found !== undefined) return found as Table;
  const table = build();
  tables.set(key, new WeakRef(table));
  forget.register(table, key);
  return table;
}
