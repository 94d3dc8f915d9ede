import { describe, expect, it } from 'vitest';
import { BlockList } from '../../../src/data/store/block-list.js';
import { Prng } from '../../../src/index.js';

// The block list against a plain array, across block splits and emptied blocks.

describe('BlockList', () => {
  it.each([
    ['appending, with inserts near the end', 0.9],
    ['inserting anywhere', 0],
  ])('holds what an array holds after %s and removals anywhere', (_name, nearEnd) => {
    const random = new Prng(7);
    const list = new BlockList();
    const model: number[] = [];
    for (let step = 0; step < 30_000; step++) {
      const value = step;
      if (model.length > 0 && random.chance(0.3)) {
        const at = random.int(model.length);
        list.removeAt(at);
        model.splice(at, 1);
      } else {
        const at = random.chance(nearEnd)
          ? Math.max(0, model.length - random.int(20))
          : random.int(model.length + 1);
        list.insert(at, value);
        model.splice(at, 0, value);
      }
    }
    expect(list.length).toBe(model.length);
    expect(model.length).toBeGreaterThan(10_000);
    expect(Array.from({ length: list.length }, (_, at) => list.get(at))).toEqual(model);
    // Emptied to the last number, then grown again.
    while (list.length > 0) list.removeAt(random.int(list.length));
    list.insert(0, 5);
    list.insert(0, 4);
    expect([list.get(0), list.get(1)]).toEqual([4, 5]);
  });
});
