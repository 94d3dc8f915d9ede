/**
 * Figure 4b: requests per second through the mock's in-process undici dispatcher from one sequential client
 * loop, beside the same loop over HTTP to the mock's listener in a child process (for scale, no target).
 */

import { createMockServer } from '@company-data/mock-server';
import { request } from 'undici';
import { type FigureContext, ResultBuilder } from '../lib/figure.js';
import { interleave } from '../lib/loop.js';
import { type FigureResult, measurement } from '../lib/result.js';
import { startHosted } from '../lib/servers.js';
import { FIGURES } from './index.js';

const SPEC = FIGURES.find((f) => f.id === 'mock-dispatcher') as (typeof FIGURES)[number];
const PATH = '/calls/?page_size=25';

/** Runs figure 4b. */
export async function run(ctx: FigureContext): Promise<FigureResult> {
  const r = new ResultBuilder(SPEC);
  const rounds = ctx.quick ? 3 : 5;
  const count = ctx.quick ? 500 : 2_000;
  r.method(
    `One sequential loop of undici.request(GET /v1${PATH}) + body.text(): through createMockServer().dispatcher ` +
      `(same process, no socket) and, for scale, over HTTP to startMockServer in a child process. ` +
      `${rounds} interleaved rounds of up to ${count} requests (3 s cap each) after 500 warm-up requests; ` +
      `req/s = 1e6 / median µs per request.`,
  );
  const mock = createMockServer({ quota: false });
  const listener = await startHosted({ kind: 'mock', mockOptions: { quota: false } });
  try {
    const headers = { authorization: `Bearer ${mock.keys.valid}` };
    const listenerHeaders = { authorization: `Bearer ${listener.keys.valid}` };
    const check = await request(`${mock.baseURL}${PATH}`, { headers, dispatcher: mock.dispatcher });
    const size = (await check.body.text()).length;
    if (check.statusCode !== 200) throw new Error(`the dispatcher answered ${check.statusCode}`);
    const results = await interleave(
      [
        {
          label: 'in-process dispatcher',
          op: async () =>
            (await request(`${mock.baseURL}${PATH}`, { headers, dispatcher: mock.dispatcher })).body.text(),
        },
        {
          label: 'HTTP listener (child process)',
          op: async () =>
            (await request(`${listener.baseURL}${PATH}`, { headers: listenerHeaders })).body.text(),
        },
      ],
      { rounds, count, warmup: 500, maxMs: 3_000, log: ctx.log },
    );
    const [inProcess = [], overHttp = []] = results.wall;
    const a = r.measure(
      measurement(
        'in-process dispatcher, one client loop',
        'req/s',
        inProcess.map((us) => 1e6 / us),
      ),
    );
    const b = r.measure(
      measurement(
        'HTTP listener, one client loop',
        'req/s',
        overHttp.map((us) => 1e6 / us),
      ),
    );
    r.note(
      `Page body ${size} bytes. The dispatcher serves ${(a.median / b.median).toFixed(2)}× the requests of the same ` +
        `loop over loopback HTTP (no target; the issue asks for the figure).`,
    );
    return r.build();
  } finally {
    await mock.close();
    await listener.close();
  }
}
