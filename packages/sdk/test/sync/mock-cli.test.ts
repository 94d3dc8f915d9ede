import { Agent, type Dispatcher } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { CompanyData } from '../../src/index.js';
import { type MockCli, startMockCli } from '../support/cli.js';

// `sync()` against the `company-data-mock` process, its data changed over the admin API (as a test in any
// language would) between two page requests: each list request is held until the admin calls made for
// it are answered, so the interleaving is exact. The mock's clock is frozen and moved by the admin API.

describe('sync against the mock CLI, changed over the admin API', () => {
  const opened: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const resource of opened.splice(0).reverse()) await resource.close();
  });

  it('delivers every call exactly once over runs, an interrupted one resumed, while calls come and go', async () => {
    const cli: MockCli = await startMockCli(['--freeze', '--calls', '90', '--users', '3']);
    opened.push({ close: () => cli.stop() });
    const admin = async (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) =>
      (await cli.admin(method, path, body)) as { data: { id: string }[] | { id: string } };
    const reader = new CompanyData({ apiKey: cli.summary.keys.valid, baseURL: cli.summary.baseURL });
    opened.push(reader);
    const alive = (await reader.calls.list({ page_size: 100 }).toArray()).map((call) => call.id);

    let requests = 0;
    let changing = true;
    /** As every other list request goes out: a call arrives a second later, and an older one is deleted. */
    const change = async () => {
      if (!changing || ++requests % 2 === 1) return;
      await cli.admin('POST', 'clock/advance', { ms: 1_000 });
      const created = await admin('POST', 'records/calls', {});
      alive.unshift((created.data as { id: string }).id);
      const [gone] = alive.splice((requests * 5) % Math.min(alive.length, 40), 1);
      await cli.admin('DELETE', `records/calls/${gone}`);
    };
    const agent = new Agent();
    opened.push(agent);
    const dispatcher = agent.compose(
      (dispatch) =>
        (request: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean => {
          if (!request.path.startsWith('/v1/calls/')) return dispatch(request, handler);
          void change().then(() => dispatch(request, handler));
          return true;
        },
    );
    const client = new CompanyData({
      apiKey: cli.summary.keys.valid,
      baseURL: cli.summary.baseURL,
      dispatcher,
    });
    opened.push(client);

    const delivered = new Map<string, number>();
    const take = async (checkpoint: string | undefined, stopAfter = Number.POSITIVE_INFINITY) => {
      const run = client.calls.sync({ checkpoint, params: { page_size: 7 } });
      let taken = 0;
      for await (const change of run) {
        if (change.type === 'created')
          delivered.set(change.record.id, (delivered.get(change.record.id) ?? 0) + 1);
        if (++taken >= stopAfter) break;
      }
      return run.checkpoint;
    };
    let checkpoint = await take(undefined, 40);
    // Stopped after 40 changes: the scan under way (the checkpoint's `walk`) passed exactly those 40 records.
    expect(JSON.parse(checkpoint).walk).toMatchObject({ passed: 40 });
    checkpoint = await take(checkpoint);
    checkpoint = await take(checkpoint);
    changing = false;
    await take(checkpoint);

    const changes = (await cli.admin('GET', 'changes')) as { data: { kind: string }[] };
    expect(changes.data.filter((entry) => entry.kind === 'deleted').length).toBeGreaterThan(5);
    const twice = [...delivered].filter(([, times]) => times > 1).map(([id]) => id);
    const missing = alive.filter((id) => !delivered.has(id));
    expect({ twice, missing }).toEqual({ twice: [], missing: [] });
  });
});
