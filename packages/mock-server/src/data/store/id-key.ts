/**
 * The key a record id or a webhook token is stored and found under: ids and tokens are uuids, matched in
 * any letter case. The one place that says so; tables, token indexes, fixtures and resolvers call it.
 *
 * @param id - an id or token as given.
 * @returns its lookup key.
 */
export function idKey(id: string): string {
  return id.toLowerCase();
}
