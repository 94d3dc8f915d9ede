// What a check of a file copy keeps of each line: a number that stands for the record's content. The SDK
// keeps a fingerprint of the same kind in its checkpoints but does not export it; this one is node:crypto's
// SHA-1 of the record's JSON with every object's keys sorted (the same content, whatever the order of its
// fields), cut to 48 bits: a JavaScript number, held in a Map without a string of its own.
import { createHash } from 'node:crypto';

/**
 * The JSON text of a value with every object's keys sorted; `undefined` members left out, as JSON.stringify
 * leaves them.
 */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    const members = Object.keys(record)
      .sort()
      .filter((key) => record[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * A number that stands for a record's content: equal for deep-equal records, different otherwise (two
 * contents share one by chance about once in 2^48 comparisons: a stale record not reported, never a record
 * missed).
 *
 * @param record - a record, as parsed from JSON.
 * @returns 48 bits of the SHA-1 of its canonical JSON.
 */
export function recordHash(record: unknown): number {
  return createHash('sha1').update(canonicalJson(record)).digest().readUIntBE(0, 6);
}
