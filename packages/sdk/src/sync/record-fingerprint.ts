// A record's fingerprint, kept in a sync checkpoint for each record of the look-back window: a later run
// re-reads the window and reports a record whose fingerprint differs as changed. Plain arithmetic on the
// JSON text (no `node:crypto`, no `crypto.subtle`, which is async): the SDK runs on Node, Bun and Deno.

/**
 * The JSON text of a value with every object's keys sorted: the same record gives the same text whatever
 * order the server wrote its fields in.
 *
 * @param value - a JSON value (a record as parsed from a response).
 * @returns its canonical JSON text.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * A short, stable hash of a record's content: 53 bits (cyrb53) of its canonical JSON, as 14 hex digits.
 * Two different contents share one by chance about once in 10^16 comparisons: a missed change report, never
 * a missed record.
 *
 * @param value - a JSON value.
 * @returns 14 lower-case hex digits.
 */
export function fingerprint(value: unknown): string {
  const text = canonicalJson(value);
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  const hash = 4294967296 * (2097151 & h2) + (h1 >>> 0);
  return hash.toString(16).padStart(14, '0');
}
