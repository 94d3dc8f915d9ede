import { afterEach, describe, expect, it } from 'vitest';
import { type SyncChange, type SyncRun, ValidationError } from '../../src/index.js';
import { callPagesRead, caught, clientFor, type Target, targets } from '../support/harness.js';

// `client.<list>.sync()` against the mock server, in-process and over a loopback socket: full exports,
// sync after sync, resuming an interrupted run, and the checkpoints it refuses.

/** Every change of a run, and the run (for its checkpoint). */
async function drain<Item>(run: SyncRun<Item>): Promise<SyncChange<Item>[]> {
  const changes: SyncChange<Item>[] = [];
  for await (const change of run) changes.push(change);
  return changes;
}

const createdIds = (changes: readonly SyncChange<{ id: string }>[]) =>
  changes.flatMap((change) => (change.type === 'created' ? [change.record.id] : []));

describe.each(targets)('sync ($name)', (target: Target) => {
  const opened: { close(): Promise<void> }[] = [];
  async function setup(calls = 230) {
    const mock = await target.start({ clock: 'frozen', sizes: { users: 4, calls } });
    opened.push(mock);
    const harness = clientFor(target, mock);
    opened.push(harness.client);
    const all = (await harness.client.calls.list({ page_size: 100 }).toArray()).map((call) => call.id);
    mock.clearJournal();
    return { mock, ...harness, all };
  }

  afterEach(async () => {
    for (const resource of opened.splice(0)) await resource.close();
  });

  it('a full export is a sync from no checkpoint: every record once, newest first, then nothing new', async () => {
    const { mock, client, all } = await setup();
    const run = client.calls.sync({ params: { page_size: 25 } });
    expect(createdIds(await drain(run))).toEqual(all);
    expect(callPagesRead(mock)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const checkpoint = JSON.parse(run.checkpoint);
    expect(checkpoint).toMatchObject({
      checkpoint: 'company-data sync checkpoint',
      version: 1,
      list: 'calls',
      walk: null,
    });
    mock.clearJournal();
    expect(await drain(client.calls.sync({ checkpoint: run.checkpoint, params: { page_size: 25 } }))).toEqual(
      [],
    );
    // The next run reads only down to the checkpoint: page 1.
    expect(callPagesRead(mock)).toEqual([1]);
  });

  it('reads pages ahead with concurrency, still every record once and in order', async () => {
    const { client, all } = await setup();
    const run = client.calls.sync({ params: { page_size: 10 } }, { concurrency: 4 });
    expect(createdIds(await drain(run))).toEqual(all);
  });

  it('pages() gives a batch per page with the checkpoint after it; a run resumed from any batch continues', async () => {
    const { client, all } = await setup(60);
    const batches = [];
    for await (const batch of client.calls.sync({ params: { page_size: 25 } }).pages()) batches.push(batch);
    expect(batches.map((batch) => [batch.page, batch.changes.length])).toEqual([
      [1, 25],
      [2, 25],
      [3, 10],
      [0, 0],
    ]);
    const resumed = client.calls.sync({ checkpoint: batches[0]?.checkpoint, params: { page_size: 25 } });
    expect(createdIds(await drain(resumed))).toEqual(all.slice(25));
  });

  it('an aborted run resumes from run.checkpoint with no duplicate and no gap', async () => {
    const { client, all } = await setup();
    const controller = new AbortController();
    const run = client.calls.sync({ params: { page_size: 20 } }, { signal: controller.signal });
    const first: string[] = [];
    const failure = await caught(
      (async () => {
        for await (const change of run) {
          if (change.type === 'created') first.push(change.record.id);
          if (first.length === 47) controller.abort();
        }
      })(),
    );
    expect(failure.code).toBe('request_aborted');
    expect(first).toEqual(all.slice(0, 47));
    const rest = createdIds(
      await drain(client.calls.sync({ checkpoint: run.checkpoint, params: { page_size: 20 } })),
    );
    expect([...first, ...rest]).toEqual(all);
  });

  it('a run by pages that fails keeps the checkpoint of the last batch yielded', async () => {
    const { mock, client, all } = await setup(60);
    const run = client.calls.sync({ params: { page_size: 10 } }, { maxRetries: 0 });
    const taken: string[] = [];
    const batches: string[] = [];
    const failure = await caught(
      (async () => {
        for await (const batch of run.pages()) {
          for (const change of batch.changes) if (change.type === 'created') taken.push(change.record.id);
          batches.push(batch.checkpoint);
          if (batches.length === 2) mock.injectFault({ path: '/v1/calls/', status: 500 });
        }
      })(),
    );
    expect(failure.code).toBe('server_error');
    expect(run.checkpoint).toBe(batches.at(-1));
    const rest = createdIds(
      await drain(client.calls.sync({ checkpoint: run.checkpoint, params: { page_size: 10 } })),
    );
    expect([...taken, ...rest]).toEqual(all);
  });

  it('a break mid-page keeps the checkpoint after the last change yielded', async () => {
    const { client, all } = await setup(60);
    const run = client.calls.sync({ params: { page_size: 25 } });
    let taken = 0;
    for await (const _change of run) if (++taken === 30) break;
    const rest = createdIds(
      await drain(client.calls.sync({ checkpoint: run.checkpoint, params: { page_size: 25 } })),
    );
    expect(rest).toEqual(all.slice(30));
  });

  it('keeps to its filters, and refuses a checkpoint of other filters, another list or none at all', async () => {
    const { client } = await setup(80);
    const voice = client.calls.sync({ params: { source: 'voice_agent' } });
    const changes = await drain(voice);
    expect(
      changes.every((change) => change.type === 'created' && change.record.source === 'voice_agent'),
    ).toBe(true);
    const refusals: SyncRun<unknown>[] = [
      client.calls.sync({ checkpoint: voice.checkpoint }),
      client.calls.sync({ checkpoint: voice.checkpoint, params: { source: 'integration' } }),
      client.users.sync({ checkpoint: voice.checkpoint }),
      client.calls.sync({ checkpoint: 'last-tuesday' }),
      client.calls.sync({ checkpoint: voice.checkpoint.replace('"mark":', '"mark":7,"x":') }),
      client.calls.sync({ checkpoint: voice.checkpoint.replace('"version":1', '"version":9') }),
    ];
    const errors = await Promise.all(refusals.map((run) => caught(drain(run))));
    // Refused, the run still hands back the checkpoint it was given: storing it loses nothing.
    expect(refusals[0]?.checkpoint).toBe(voice.checkpoint);
    for (const error of errors) {
      expect(error).toBeInstanceOf(ValidationError);
      expect(error.code).toBe('invalid_checkpoint');
    }
    expect(errors.map((error) => error.message)).toEqual([
      expect.stringMatching(
        /made with the filters \{"source":"voice_agent"\}, and this run has \{\}: pass the same `params`/,
      ),
      expect.stringMatching(/and this run has \{"source":"integration"\}/),
      expect.stringMatching(
        /client\.users\.sync\(\) is a checkpoint of "calls": pass it to that list's sync\(\)/,
      ),
      expect.stringMatching(
        /not a sync checkpoint \("last-tuesday"\): pass the string a previous run's `run\.checkpoint` returned/,
      ),
      expect.stringMatching(/is damaged \(`mark` is not \{ at, ids \}\)/),
      expect.stringMatching(/of version 9, and this SDK reads version 1/),
    ]);
  });

  it('refuses its own parameters and bad options before sending anything', async () => {
    const { mock, client } = await setup(10);
    const page = await caught(drain(client.calls.sync({ params: { page: 2 } as never })));
    expect(page).toBeInstanceOf(ValidationError);
    expect(page.message).toMatch(
      /client\.calls\.sync\(\) reads the list newest first from page 1 and sets `page` itself/,
    );
    const ordering = await caught(drain(client.calls.sync({ params: { ordering: 'created_at' } as never })));
    expect(ordering.message).toMatch(/sets `ordering` itself/);
    const lookBack = await caught(drain(client.calls.sync({ lookBack: -1 })));
    expect(lookBack.code).toBe('invalid_option');
    const unknown = await caught(drain(client.calls.sync({ checkpont: 'x' } as never)));
    expect(unknown.message).toMatch(/checkpont.*checkpoint/);
    const notAnObject = await caught(drain(client.calls.sync(null as never)));
    expect(notAnObject.code).toBe('invalid_option');
    const ordered = await caught(drain(client.calls.sync({}, { ordered: false } as never)));
    expect(ordered.code).toBe('invalid_option');
    const source = await caught(drain(client.calls.sync({ params: { source: 'fax' as never } })));
    expect(source).toBeInstanceOf(ValidationError);
    expect(source.message).toMatch(/client\.calls\.sync\(\)/);
    expect(callPagesRead(mock)).toEqual([]);
  });

  it('a run is iterated once', async () => {
    const { client } = await setup(5);
    const run = client.calls.sync();
    await drain(run);
    const again = await caught(drain(run));
    expect(again.code).toBe('sync_already_iterated');
    expect(again.message).toMatch(
      /start another with client\.calls\.sync\(\{ checkpoint: run\.checkpoint \}\)/,
    );
  });

  it('every list has sync: users, teams, recordings', async () => {
    const { client } = await setup(5);
    const [users, teams, recordings] = await Promise.all([
      drain(client.users.sync()),
      drain(client.teams.sync()),
      drain(client.recordings.sync()),
    ]);
    expect(users.length).toBe((await client.users.list()).pagination.count);
    expect(teams.length).toBe((await client.teams.list()).pagination.count);
    expect(recordings.length).toBe((await client.recordings.list()).pagination.count);
  });
});
