import { type MockServer, Prng } from '@company-data/mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompanyData } from '../../src/index.js';
import { clientFor, clientWithHook, type RequestHook, type Target, targets } from '../support/harness.js';

// A property of `sync()` against the mock: whatever creations and deletions happen between any two page
// requests, runs after runs (some stopped half-way and resumed from their checkpoint) deliver every call
// that exists at the end exactly once, and no call twice. Seeded and bounded: the same interleavings on
// every run of the suite, in well under a second per target. One page at a time (the default): see
// `SyncRequestOptions` for read-ahead under deletions. test/sync/scan.test.ts runs many more
// interleavings against a model of the API.

const SEEDS = 12;

describe.each(targets)('sync under random interleavings ($name)', (target: Target) => {
  let mock: MockServer;
  let reader: CompanyData;
  let client: CompanyData;
  let onListRequest: RequestHook = () => undefined;

  beforeAll(async () => {
    mock = await target.start({ clock: 'frozen', sizes: { users: 3, calls: 40 } });
    reader = clientFor(target, mock).client;
    client = clientWithHook(target, mock, (request) =>
      request.path === '/v1/calls/' ? onListRequest(request) : undefined,
    ).client;
  });
  afterAll(async () => {
    await client.close();
    await reader.close();
    await mock.close();
  });

  it.each(Array.from({ length: SEEDS }, (_, index) => index + 1))('seed %i', async (seed) => {
    mock.reset();
    const random = new Prng(seed);
    const rand = () => random.next();
    const alive = (await reader.calls.list({ page_size: 100 }).toArray()).map((call) => call.id);
    const pageSize = 1 + Math.floor(rand() * 6);
    const delivered = new Map<string, number>();
    let changing = true;
    onListRequest = () => {
      if (!changing) return undefined;
      const steps = rand() < 0.4 ? 0 : 1 + Math.floor(rand() * 3);
      for (let step = 0; step < steps; step++) {
        if (rand() < 0.45) {
          // A new second, or the very second of the newest call (a tie at the head).
          mock.clock.advance(rand() < 0.3 ? 0 : 1_000);
          alive.unshift(mock.records.create('calls').id);
        } else if (alive.length > 0) {
          const [id] = alive.splice(Math.floor(rand() * alive.length), 1);
          mock.records.delete('calls', id ?? '');
        }
      }
      return undefined;
    };
    let checkpoint: string | undefined;
    for (let round = 0; round < 8; round++) {
      changing = round < 6;
      const run = client.calls.sync({ checkpoint, params: { page_size: pageSize } });
      const stopAfter = changing && rand() < 0.4 ? Math.floor(rand() * 12) : Number.POSITIVE_INFINITY;
      let taken = 0;
      for await (const change of run) {
        if (change.type === 'created')
          delivered.set(change.record.id, (delivered.get(change.record.id) ?? 0) + 1);
        if (++taken >= stopAfter) break;
      }
      checkpoint = run.checkpoint;
    }
    const twice = [...delivered].filter(([, times]) => times > 1).map(([id]) => id);
    const missing = alive.filter((id) => !delivered.has(id));
    expect({ pageSize, twice, missing }).toEqual({ pageSize, twice: [], missing: [] });
  });
});
