import { describe, expect, it } from 'vitest';
import { type AttemptOutcome, type ReleaseSlot, RequestSlots } from '../../src/request/request-slots.js';
import { turn } from '../support/turns.js';

const aborted = () => new Error('aborted');

describe('RequestSlots', () => {
  it('holds at most `size` attempts, serves the lowest priority first, and reports outcomes', async () => {
    const stop = new AbortController();
    const slots = new RequestSlots(2, stop.signal);
    const outcomes: [number, AttemptOutcome][] = [];
    const claim = (priority: number) =>
      slots.claim(priority, (outcome) => outcomes.push([priority, outcome])).acquire(aborted);
    const first = await claim(5);
    await claim(6);
    const granted: number[] = [];
    for (const priority of [9, 7, 8]) void claim(priority).then(() => granted.push(priority));
    await turn();
    expect(granted).toEqual([]);
    first('failed');
    first('answered'); // a second release of one slot is ignored
    await turn();
    expect(granted).toEqual([7]);
    expect(outcomes).toEqual([[5, 'failed']]);
  });

  it('rejects every waiter when its signal aborts', async () => {
    const stop = new AbortController();
    const slots = new RequestSlots(1, stop.signal);
    const held: ReleaseSlot = await slots.claim(1).acquire(aborted);
    const waiting = slots.claim(2).acquire(aborted);
    stop.abort();
    await expect(waiting).rejects.toThrow('aborted');
    await expect(slots.claim(3).acquire(aborted)).rejects.toThrow('aborted');
    held('answered');
  });
});
