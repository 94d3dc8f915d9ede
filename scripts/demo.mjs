// The project's main job, end to end: start the mock server with seeded data, then use the SDK over
// real HTTP the way an app would. Run it with `npm run demo`.
import { startMockServer } from '@company-data/mock-server';
import { CompanyData } from '@company-data/sdk';

const mock = await startMockServer({ seed: 1 });
const client = new CompanyData({ apiKey: mock.keys.valid, baseURL: mock.baseURL });
console.log(`Mock Company Data API listening at ${mock.baseURL}\n`);

try {
  // 1. The first page of users.
  const users = await client.users.list({ page_size: 5 });
  console.log(`Users (${users.pagination.count} in total, first ${users.data.length}):`);
  for (const user of users.data) console.log(`  ${user.full_name.padEnd(24)} ${user.email}`);

  // 2. Every call, page after page (4 pages requested ahead). In a terminal a live count shows on stderr and
  // is erased before the summary; elsewhere (a pipe, a CI log) nothing goes to stderr, so the output stays in
  // order.
  /** @type {Record<string, number>} */
  const bySource = {};
  let count = 0;
  for await (const call of client.calls.list({ page_size: 100 }, { concurrency: 4 })) {
    bySource[call.source] = (bySource[call.source] ?? 0) + 1;
    if (++count % 10 === 0 && process.stderr.isTTY) process.stderr.write(`\r  calls read: ${count}`);
  }
  if (process.stderr.isTTY) process.stderr.write('\r\x1b[2K');
  console.log(`\nCalls: ${count}, by source: ${JSON.stringify(bySource)}`);

  // 3. The transcript of the newest call.
  const [newest] = (await client.calls.list({ page_size: 1 })).data;
  if (!newest) throw new Error('the mock server has no calls');
  const { transcript } = await client.calls.transcript(newest.id);
  console.log(`\nTranscript of call ${newest.id} (${transcript.length} segments):`);
  for (const segment of transcript.slice(0, 3)) console.log(`  ${segment.speaker}: ${segment.text}`);

  // 4. The audience webhook is idempotent: the same phone in another format returns the same member.
  const contact = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };
  const first = await client.audiences
    .addMember(mock.tokens.audience, { ...contact, phone: '(415) 555-0123' })
    .withResponse();
  const again = await client.audiences
    .addMember(mock.tokens.audience, { ...contact, phone: '+1 415-555-0123' })
    .withResponse();
  console.log('\nAudience member added twice:');
  console.log(
    `  1st: HTTP ${first.response.status} (created)  id ${first.data.id}  phone ${first.data.phone}`,
  );
  console.log(
    `  2nd: HTTP ${again.response.status} (existing) id ${again.data.id}  same member: ${first.data.id === again.data.id}`,
  );

  // 5. A lead; a second one from the same phone within 15 minutes joins the same conversation.
  const webhookUrl = `${mock.apiRoot}/messaging-agent/webhook/${mock.tokens.lead}/`;
  const lead = { phone_number: '415-555-0100', customer_name: 'Grace Hopper', service_type: 'roof repair' };
  const received = await client.leads.submit(webhookUrl, lead);
  await client.leads.submit(mock.tokens.lead, lead);
  console.log(
    `\nLead submitted twice: ${JSON.stringify(received)}, conversations: ${mock.conversations().length}`,
  );
} finally {
  await client.close();
  await mock.close();
}

console.log(`
Next steps:
  1. See how this demo works:          scripts/demo.mjs
  2. Run the mock server yourself:     npx company-data-mock --port 4010   (--help lists every option)
  3. Use the SDK in your own project:  docs/getting-started.md`);
