/**
 * The known name closest to a misspelt one, for "did you mean" hints: `souce` → `source`, `isActive` →
 * `is_active`, `timout` → `timeout`, `phone` → `phone_number`, `warning` → `warn`. Letter case, `_` and `-` are ignored. The
 * closest within one edit per three letters wins (an insertion, deletion, substitution or swap of
 * neighbours); failing that, the only known name that contains the misspelt one or is contained in it
 * (`warning` → `warn`), the shorter of the two having four letters or more.
 *
 * @param name - the unknown name.
 * @param candidates - the known names.
 * @returns the closest candidate (the first of equals), or `undefined` when none is close enough.
 */
export function closestName(name: string, candidates: readonly string[]): string | undefined {
  const wanted = comparable(name);
  const allowed = Math.max(1, Math.floor(wanted.length / 3));
  let best: string | undefined;
  let bestDistance = allowed + 1;
  for (const candidate of candidates) {
    const distance = editDistance(wanted, comparable(candidate));
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  if (best !== undefined) return best;
  const overlapping = candidates.filter((candidate) => overlaps(wanted, comparable(candidate)));
  return overlapping.length === 1 ? overlapping[0] : undefined;
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
 * The optimal string alignment distance: how many insertions, deletions, substitutions and swaps of
 * neighbouring letters turn `a` into `b`.
 *
 * @param a - one string.
 * @param b - the other.
 * @returns the number of edits.
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
