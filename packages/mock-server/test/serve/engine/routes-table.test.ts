import { describe, expect, it } from 'vitest';
import { MockClock } from '../../../src/data/clock.js';
import { DEFAULT_SIZES, generateStore } from '../../../src/data/fake/seeded-store.js';
import { Throttle } from '../../../src/data/store/quota.js';
import { MockEngine, type SideRoute } from '../../../src/serve/engine/engine.js';
import { FaultQueue } from '../../../src/serve/engine/faults.js';
import { requestJournal } from '../../../src/serve/engine/request-journal.js';
import { RouteTable } from '../../../src/serve/engine/routes.js';
import { jsonText } from '../../../src/serve/http/responses.js';
import type { MockRequest } from '../../../src/serve/http/types.js';
import { RESOLVERS } from '../../../src/serve/resolvers/resolver-table.js';

/** An engine over `routes`, on a frozen clock, with no server around it. */
function engineWith(routes: RouteTable, sideRoutes: readonly SideRoute[] = []) {
  const clock = new MockClock(undefined, { mode: 'frozen' });
  const seeded = generateStore(1, DEFAULT_SIZES, clock.initialMs());
  const journal = requestJournal();
  const engine = new MockEngine(routes, {
    store: seeded.store,
    clock,
    throttle: new Throttle(false),
    faults: new FaultQueue(),
    latency: undefined,
    faultRates: undefined,
    journal,
    maxBodyBytes: 1024,
    takeLeadFailure: () => false,
    sideRoutes,
  });
  return { engine, journal, keys: seeded.keys };
}

const get = (path: string, key: string): MockRequest => ({
  method: 'GET',
  path,
  search: '',
  headers: { authorization: `Bearer ${key}` },
});

describe('MockEngine is handed its routes', () => {
  it('answers through the table it is given, after its own key checks', async () => {
    const routes = new RouteTable({
      ...RESOLVERS,
      listTeams: () => ({ response: jsonText(200, '{"stub":true}'), outcome: 'served' }),
    });
    const { engine, keys } = engineWith(routes);
    const result = await engine.handle(get('/v1/teams/', keys.valid));
    expect(result.drop ? undefined : result.response.body).toBe('{"stub":true}');
    const refused = await engine.handle(get('/v1/teams/', 'svc_live_unknown'));
    expect(refused.drop ? undefined : refused.response.status).toBe(401);
  });

  it('answers the real resolvers through the table the server builds', async () => {
    const { engine, keys, journal } = engineWith(new RouteTable(RESOLVERS));
    const result = await engine.handle(get('/v1/teams/', keys.valid));
    // The default sizes' four teams.
    expect(result.drop ? undefined : JSON.parse(result.response.body).pagination.count).toBe(4);
    expect(journal.entries().map((entry) => entry.outcome)).toEqual(['served']);
  });

  it('hands side routes their paths before routing, never journaled', async () => {
    const side: SideRoute = {
      outcome: 'admin',
      matches: (path) => path.startsWith('/side/'),
      answer: () => jsonText(200, '"side"'),
    };
    const { engine, journal } = engineWith(new RouteTable(RESOLVERS), [side]);
    const result = await engine.handle(get('/side/x', ''));
    expect(result.drop ? undefined : result.response.body).toBe('"side"');
    expect(journal.entries()).toEqual([]);
  });
});
