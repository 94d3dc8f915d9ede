// What a mock server holds, read as any client reads it (plain fetch over its API, independent of the SDK
// under test): the expected side of the copy tests.

/** Where a mock's API is and a key it takes: a `MockServer`, or the summary of its CLI. */
export interface HeldSource {
  readonly baseURL: string;
  readonly keys: { readonly valid: string };
}

/**
 * Every record of a list the mock holds now, newest first, page by page.
 *
 * @param source - the mock.
 * @param list - the list's path segment, e.g. `calls`.
 */
export async function heldRecords<Item extends { id: string }>(
  source: HeldSource,
  list: string,
): Promise<Item[]> {
  const records: Item[] = [];
  for (let page = 1; ; page++) {
    const response = await fetch(`${source.baseURL}/${list}/?page_size=100&page=${page}`, {
      headers: { authorization: `Bearer ${source.keys.valid}` },
    });
    const body = (await response.json()) as { data: Item[]; pagination: { total_pages: number } };
    records.push(...body.data);
    if (page >= body.pagination.total_pages) return records;
  }
}

/** The ids of {@link heldRecords}, newest first. */
export async function heldIds(source: HeldSource, list: string): Promise<string[]> {
  return (await heldRecords(source, list)).map((record) => record.id);
}
