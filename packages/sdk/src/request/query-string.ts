// A query string as the SDK writes it, for a list's pages and a retrieve's `query` extras.

/** Names and values that form encoding leaves as they are (`URLSearchParams` writes them unchanged). */
const FORM_SAFE = /^[\w.*-]*$/;

/**
 * A query string of the given values (those not `undefined`, and not `skip`), in order: `a=1&b=2`, or `''`.
 * Written as `URLSearchParams` writes it; joined by hand when nothing needs encoding, the usual case.
 */
export function queryString(values: Record<string, unknown> | undefined, skip?: string): string {
  let query = '';
  for (const name in values) {
    const value = values[name];
    if (value === undefined || name === skip || !Object.hasOwn(values, name)) continue;
    const text = String(value);
    if (!FORM_SAFE.test(name) || !FORM_SAFE.test(text)) return encodedQueryString(values, skip);
    query = joinQueries(query, `${name}=${text}`);
  }
  return query;
}

function encodedQueryString(values: Record<string, unknown>, skip: string | undefined): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(values))
    if (value !== undefined && name !== skip) search.set(name, String(value));
  return search.toString();
}

export function joinQueries(first: string, second: string): string {
  if (first === '') return second;
  return second === '' ? first : `${first}&${second}`;
}
