// A user's script run with Bun or Deno (and Node, as the reference), from a fresh project where the packed
// tarballs were installed, against a mock server started by the harness. The address, key and webhook
// URLs come from the environment variables the guides name; the SDK reads the first two itself.
// Prints one line per check and `done`; any failure throws (a non-zero exit).
import { AsyncLocalStorage } from 'node:async_hooks';
import diagnostics_channel from 'node:diagnostics_channel';
import { ClientClosedError, CompanyData, NotFoundError, TRACING_CHANNELS } from '@company-data/sdk';

/** The globals of the runtimes this runs on, as far as it reads them. */
const globals = /** @type {{ Bun?: { version: string }, Deno?: { version: { deno: string },
 *   env: { get(name: string): string | undefined } }, process?: NodeJS.Process }} */ (globalThis);

const runtime = globals.Bun
  ? `bun ${globals.Bun.version}`
  : globals.Deno
    ? `deno ${globals.Deno.version.deno}`
    : `node ${process.versions.node}`;

/**
 * @param {boolean} condition
 * @param {string} message
 */
function check(condition, message) {
  if (!condition) throw new Error(`${runtime}: ${message}`);
}

/** The variable `name`, which the harness sets. */
const env = (/** @type {string} */ name) => {
  const value = globals.Deno?.env.get(name) ?? globals.process?.env[name];
  if (value === undefined) throw new Error(`${runtime}: ${name} is not set`);
  return value;
};
const client = new CompanyData();

// A list with prefetch: pages fetched ahead, in order, the same records as one page at a time.
/** @type {string[]} */
const sequential = [];
for await (const call of client.calls.list({ page_size: 7 })) sequential.push(call.id);
const prefetched = [];
for await (const call of client.calls.list({ page_size: 7 }, { concurrency: 4 })) prefetched.push(call.id);
check(sequential.length > 7, `expected several pages of calls, got ${sequential.length} calls`);
check(prefetched.join() === sequential.join(), 'prefetching pages changed the calls or their order');
console.log(`ok ${runtime}: listed ${prefetched.length} calls over several pages, 4 at a time`);

// The tracing channels: a subscriber sees the call start and end, with the store it bound to `start` active.
/** @type {string[]} */
const traced = [];
/** @type {AsyncLocalStorage<string>} */
const store = new AsyncLocalStorage();
/** @type {diagnostics_channel.TracingChannel<string, import('@company-data/sdk').CallContext>} */
const calls = diagnostics_channel.tracingChannel(TRACING_CHANNELS.call);
/** @type {diagnostics_channel.TracingChannelSubscribers<import('@company-data/sdk').CallContext>} */
const subscriber = {
  start: (context) => traced.push(`start ${context.operation} ${store.getStore()}`),
  end: () => {},
  asyncStart: () => {},
  asyncEnd: (context) =>
    traced.push(`asyncEnd ${context.operation} ${context.outcome} ${context.status} ${store.getStore()}`),
  error: () => {},
};
calls.start.bindStore(store, (context) => context.urlTemplate);
calls.subscribe(subscriber);
const call = await client.calls.retrieve(sequential[0] ?? '');
calls.unsubscribe(subscriber);
calls.start.unbindStore(store);
check(call.id === sequential[0], 'retrieve returned another call');
console.log(`ok ${runtime}: retrieved call ${call.id}`);
const expected = ['start retrieveCall /calls/{id}/', 'asyncEnd retrieveCall ok 200 /calls/{id}/'];
check(
  traced.join() === expected.join(),
  `the tracing channel ${TRACING_CHANNELS.call} saw ${JSON.stringify(traced)}`,
);
console.log(
  `ok ${runtime}: a subscriber of ${TRACING_CHANNELS.call} saw the call start and end, in its store`,
);

const missing = await client.users.retrieve('00000000-0000-4000-8000-000000000000').then(
  () => undefined,
  (error) => error,
);
check(missing instanceof NotFoundError && missing.status === 404, `expected NotFoundError, got ${missing}`);
console.log(`ok ${runtime}: a missing user is a NotFoundError`);

const member = await client.audiences.addMember(env('COMPANY_DATA_AUDIENCE_WEBHOOK'), {
  first_name: 'Ada',
  phone: '(415) 555-0123',
});
check(typeof member.id === 'string', 'the audience webhook returned no member');
const lead = await client.leads.submit(env('COMPANY_DATA_LEAD_WEBHOOK'), { phone_number: '415-555-0100' });
check(lead !== undefined, 'the lead webhook returned nothing');
console.log(`ok ${runtime}: added an audience member and submitted a lead`);

await client.close();
const closed = await client.users.list().then(
  () => undefined,
  (error) => error,
);
check(closed instanceof ClientClosedError, `expected ClientClosedError after close(), got ${closed}`);
console.log(`ok ${runtime}: a closed client says so`);
console.log('done');
