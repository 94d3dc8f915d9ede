/**
 * The known name closest to a misspelt one, for "did you mean" hints shared by the SDK, the mock server's
 * command line and the CLI: `souce` → `source`, `maxRetry` → `maxRetries`, `--prot` → `--port`,
 * `warning` → `warn`. Letter case, `_` and `-` are ignored. Three rules, in this order:
 *
 * 1. A typo: the closest name within one edit per three letters (an insertion, deletion, substitution or
 *    swap of neighbours), the one sharing the longer beginning winning a tie (`timout` → `timeout`).
 * 2. The same stem, another ending: among the names that share the typed one's beginning (four letters or
 *    more, all but its last three at most), the fewest edits away (`maxRetry` → `maxRetries` rather than
 *    `maxRetryWait`: people get endings wrong, seldom add a word).
 * 3. Failing both, the only name that contains the typed one or is contained in it, the shorter of the two
 *    having four letters or more (`retries` → `maxRetries`).
 *
 * No suggestion is better than a wrong one: a tie that nothing breaks suggests nothing. Hand-written
 * rather than a dependency because the SDK ships it to users and the rules above fit in forty lines.
 *
 * @param name - the unknown name.
 * @param candidates - the known names.
 * @returns the closest candidate, or `undefined` when none is close enough or several are equally close.
 * @example
 * ```ts
 * import { closestName } from '@company-data/contract/runtime';
 *
 * closestName('maxRetry', ['timeout', 'maxRetries', 'maxRetryWait']); // 'maxRetries'
 * ```
 */
export function closestName(name: string, candidates: readonly string[]): string | undefined {
  const wanted = comparable(name);
  if (wanted === '') return undefined;
  const scored = candidates.map((candidate) => {
    const known = comparable(candidate);
    return { candidate, known, distance: editDistance(wanted, known), prefix: sharedPrefix(wanted, known) };
  });
  const allowed = Math.max(1, Math.floor(wanted.length / 3));
  const typo = closest(scored.filter((entry) => entry.distance <= allowed));
  if (typo !== undefined || scored.some((entry) => entry.distance <= allowed)) return typo;
  const stem = closest(scored.filter((entry) => entry.prefix >= 4 && entry.prefix >= wanted.length - 3));
  if (stem !== undefined) return stem;
  const overlapping = scored.filter((entry) => overlaps(wanted, entry.known));
  return overlapping.length === 1 ? overlapping[0]?.candidate : undefined;
}

interface Scored {
  readonly candidate: string;
  readonly distance: number;
  readonly prefix: number;
}

/** The fewest edits away, then the longest shared beginning; undefined when that still leaves a tie. */
function closest(entries: readonly Scored[]): string | undefined {
  const sorted = [...entries].sort((a, b) => a.distance - b.distance || b.prefix - a.prefix);
  const [first, second] = sorted;
  if (first === undefined) return undefined;
  if (second !== undefined && second.distance === first.distance && second.prefix === first.prefix)
    return undefined;
  return first.candidate;
}

/** How many leading letters two names share. */
function sharedPrefix(a: string, b: string): number {
  let length = 0;
  while (length < a.length && length < b.length && a[length] === b[length]) length++;
  return length;
}

/** Whether one name contains the other, the shorter having four letters or more. */
function overlaps(a: string, b: string): boolean {
  const [shorter, longer] = a.length <= b.length ? [a, b] : [b, a];
  return shorter.length >= 4 && longer.includes(shorter);
}

function comparable(name: string): string {
  return name.toLowerCase().replace(/[-_]/g, '');
}

/**
 * The optimal string alignment distance (Damerau–Levenshtein without repeated edits of one substring):
 * how many insertions, deletions, substitutions and swaps of neighbouring letters turn `a` into `b`.
 *
 * @param a - one string.
 * @param b - the other.
 * @returns the number of edits.
 * @example
 * ```ts
 * import { editDistance } from '@company-data/contract/runtime';
 *
 * editDistance('soucre', 'source'); // 1 (a swap)
 * ```
 */
export function editDistance(a: string, b: string): number {
  // Three rows of the dynamic-programming table: two back (for swaps), the previous and the current one.
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, column) => column);
  for (let row = 1; row <= a.length; row++) {
    const current = [row];
    for (let column = 1; column <= b.length; column++) {
      const substitution = at(previous, column - 1) + (a[row - 1] === b[column - 1] ? 0 : 1);
      let distance = Math.min(at(previous, column) + 1, at(current, column - 1) + 1, substitution);
      if (row > 1 && column > 1 && a[row - 1] === b[column - 2] && a[row - 2] === b[column - 1]) {
        distance = Math.min(distance, at(beforePrevious, column - 2) + 1);
      }
      current.push(distance);
    }
    beforePrevious = previous;
    previous = current;
  }
  return at(previous, b.length);
}

function at(row: readonly number[], column: number): number {
  return row[column] as number;
}
