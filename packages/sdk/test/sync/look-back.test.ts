import { afterEach, describe, expect, it } from 'vitest';
import type { SyncChange, SyncRun } from '../../src/index.js';
import { clientFor, type Target, targets } from '../support/harness.js';

// The look-back window of `sync()`: records of the window whose content changed since the last run are
// reported `changed`, those that left the list `removed`; changes older than the window are not seen.

async function drain<Item>(run: SyncRun<Item>): Promise<SyncChange<Item>[]> {
  const changes: SyncChange<Item>[] = [];
  for await (const change of run) changes.push(change);
  return changes;
}

/** An instant as the span writes it (the API's may leave out the milliseconds). */
const iso = (at: string) => new Date(at).toISOString();

/** A change as `[type, id]`, to compare runs at a glance. */
const brief = (change: SyncChange<{ id: string }>) =>
  [change.type, change.type === 'removed' ? change.id : change.record.id] as const;

describe.each(targets)('sync look-back ($name)', (target: Target) => {
  const opened: { close(): Promise<void> }[] = [];
  async function setup() {
    const mock = await target.start({ clock: 'frozen', sizes: { users: 12, calls: 60 } });
    opened.push(mock);
    const { client } = clientFor(target, mock);
    opened.push(client);
    return { mock, client };
  }

  afterEach(async () => {
    for (const resource of opened.splice(0)) await resource.close();
  });

  it('reports a call excused late and a call deleted in the window, not a change older than it', async () => {
    const { mock, client } = await setup();
    const calls = await client.calls.list({ page_size: 100 }).toArray();
    const [newest, , , , , excused = newest, , , deleted = newest] = calls.filter((call) => !call.is_excused);
    // The window: the fifteen newest calls.
    const lookBack = Date.parse(calls[0]?.created_at ?? '') - Date.parse(calls[14]?.created_at ?? '');
    const options = { lookBack, params: { page_size: 10 } };
    const first = client.calls.sync(options);
    expect(await drain(first)).toHaveLength(60);
    expect(Object.keys(JSON.parse(first.checkpoint).window.fingerprints)).toHaveLength(15);

    mock.records.update('calls', excused?.id ?? '', { is_excused: true });
    mock.records.update('calls', calls[40]?.id ?? '', { summary: 'Rewritten long after.' });
    mock.records.delete('calls', deleted?.id ?? '');
    mock.clock.advance(1_000);
    const arrived = mock.records.create('calls');

    const second = client.calls.sync({ ...options, checkpoint: first.checkpoint });
    const changes = await drain(second);
    expect(changes.map(brief)).toEqual([
      ['created', arrived.id],
      ['changed', excused?.id],
      ['removed', deleted?.id],
    ]);
    const change = changes[1];
    expect(change?.type === 'changed' && change.record.is_excused).toBe(true);
    expect(await drain(client.calls.sync({ ...options, checkpoint: second.checkpoint }))).toEqual([]);
  });

  it('gives each batch every record it passed, and the last batch the span it passed in full', async () => {
    const { mock, client } = await setup();
    const calls = await client.calls.list({ page_size: 100 }).toArray();
    const newest = calls[0] as (typeof calls)[number];
    const fifteenth = calls[14] as (typeof calls)[number];
    // The window: the fifteen newest calls.
    const lookBack = Date.parse(newest.created_at) - Date.parse(fifteenth.created_at);
    const options = { lookBack, params: { page_size: 10 } };
    const first = client.calls.sync(options);
    const firstBatches = [];
    for await (const batch of first.pages()) firstBatches.push(batch);
    // A full walk: every call, page by page, and the last batch says it read the list to its end.
    expect(firstBatches.map((batch) => batch.records.length)).toEqual([10, 10, 10, 10, 10, 10, 0]);
    expect(firstBatches.flatMap((batch) => batch.records.map((call) => call.id))).toEqual(
      calls.map((call) => call.id),
    );
    expect(firstBatches.at(-1)?.passed).toEqual({ from: null, to: iso(newest.created_at) });
    expect(firstBatches.slice(0, -1).map((batch) => batch.passed)).toEqual(Array(6).fill(undefined));

    mock.clock.advance(1_000);
    const arrived = mock.records.create('calls');
    const second = client.calls.sync({ ...options, checkpoint: first.checkpoint });
    const batches = [];
    for await (const batch of second.pages()) batches.push(batch);
    // Unchanged, the window's calls come as records with no change: the arrival, then the fifteen newest.
    expect(batches.flatMap((batch) => batch.changes.map(brief))).toEqual([['created', arrived.id]]);
    expect(batches.flatMap((batch) => batch.records.map((call) => call.id))).toEqual([
      arrived.id,
      ...calls.slice(0, 15).map((call) => call.id),
    ]);
    expect(batches.at(-1)?.passed).toEqual({
      from: iso(fifteenth.created_at),
      to: iso(arrived.created_at),
    });
  });

  it('a run stopped among its removals resumes with the rest of them', async () => {
    const { mock, client } = await setup();
    const lookBack = 10 * 365 * 86_400_000;
    const first = client.calls.sync({ lookBack });
    const ids = (await drain(first)).flatMap((change) =>
      change.type === 'created' ? [change.record.id] : [],
    );
    const gone = [ids[3], ids[30], ids[50]] as string[];
    for (const id of gone) mock.records.delete('calls', id);
    const second = client.calls.sync({ lookBack, checkpoint: first.checkpoint });
    const seen: string[] = [];
    for await (const change of second) {
      if (change.type === 'removed') seen.push(change.id);
      if (seen.length === 1) break;
    }
    const rest = await drain(client.calls.sync({ lookBack, checkpoint: second.checkpoint }));
    seen.push(...rest.flatMap((change) => (change.type === 'removed' ? [change.id] : [])));
    expect(rest.every((change) => change.type === 'removed')).toBe(true);
    expect(seen.sort()).toEqual([...gone].sort());
  });

  it('reports a deactivated user as changed, and as removed from a list of active users', async () => {
    const { mock, client } = await setup();
    const lookBack = 10 * 365 * 86_400_000; // every user is in the window
    const everyone = client.users.sync({ lookBack });
    const active = client.users.sync({ lookBack, params: { is_active: true } });
    await drain(everyone);
    const activeUsers = (await drain(active)).flatMap((change) =>
      change.type === 'created' ? [change.record] : [],
    );
    const leaving = activeUsers[3];
    mock.records.update('users', leaving?.id ?? '', { is_active: false });

    const all = await drain(client.users.sync({ lookBack, checkpoint: everyone.checkpoint }));
    expect(all.map(brief)).toEqual([['changed', leaving?.id]]);
    expect(all[0]?.type === 'changed' && all[0].record.is_active).toBe(false);
    const stillActive = client.users.sync({
      lookBack,
      checkpoint: active.checkpoint,
      params: { is_active: true },
    });
    expect((await drain(stillActive)).map(brief)).toEqual([['removed', leaving?.id]]);

    // Back again: it re-enters the list of active users, seen as created there.
    mock.records.update('users', leaving?.id ?? '', { is_active: true });
    const back = await drain(
      client.users.sync({ lookBack, checkpoint: stillActive.checkpoint, params: { is_active: true } }),
    );
    expect(back.map(brief)).toEqual([['created', leaving?.id]]);
  });

  it('without lookBack the checkpoint keeps no fingerprints and later changes go unreported', async () => {
    const { mock, client } = await setup();
    const run = client.calls.sync();
    const [newest] = (await drain(run)).flatMap((change) =>
      change.type === 'created' ? [change.record] : [],
    );
    expect(JSON.parse(run.checkpoint).window).toBeNull();
    mock.records.update('calls', newest?.id ?? '', { summary: 'Changed.' });
    expect(await drain(client.calls.sync({ checkpoint: run.checkpoint }))).toEqual([]);
  });
});
