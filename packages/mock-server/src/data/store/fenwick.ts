/**
 * Counts over consecutive buckets with prefix sums and "which bucket holds the k-th item" in O(log n)
 * (a Fenwick tree). A list whose records are inserted and deleted answers its n-th record with it, so a
 * deep page costs what the first page costs.
 */
export class Fenwick {
  readonly #tree: Int32Array;
  readonly #mask: number;

  /**
   * Builds the tree in O(n) from the bucket counts.
   *
   * @param counts - the count of each bucket.
   */
  constructor(counts: ArrayLike<number>) {
    const n = counts.length;
    const tree = new Int32Array(n + 1);
    for (let i = 1; i <= n; i++) {
      tree[i] = (tree[i] as number) + (counts[i - 1] as number);
      const parent = i + (i & -i);
      if (parent <= n) tree[parent] = (tree[parent] as number) + (tree[i] as number);
    }
    this.#tree = tree;
    let mask = 1;
    while (mask * 2 <= n) mask *= 2;
    this.#mask = mask;
  }

  /** Adds `delta` to the count of bucket `index`. */
  add(index: number, delta: number): void {
    const tree = this.#tree;
    for (let i = index + 1; i < tree.length; i += i & -i) tree[i] = (tree[i] as number) + delta;
  }

  /**
   * The bucket holding the item of rank `rank` (0-based, counting items bucket by bucket) and the rank
   * of that item inside its bucket.
   */
  find(rank: number): { bucket: number; offset: number } {
    const tree = this.#tree;
    let position = 0;
    let rest = rank;
    for (let step = this.#mask; step > 0; step >>= 1) {
      const next = position + step;
      if (next < tree.length && (tree[next] as number) <= rest) {
        position = next;
        rest -= tree[next] as number;
      }
    }
    return { bucket: position, offset: rest };
  }
}
