// Reads every call with `for await` (the SDK fetches page after page) and prints a summary.
//
//   npx tsx examples/iterate-calls.ts [--source integration|voice_agent]
import { parseArgs } from 'node:util';
import { type CallSource, CompanyData, CompanyDataError } from '@company-data/sdk';

const { values } = parseArgs({ options: { source: { type: 'string' } } });
const source = values.source as CallSource | undefined;

const client = new CompanyData();

try {
  let calls = 0;
  let booked = 0;
  let qualified = 0;
  let scoreSum = 0;
  const bySource = new Map<string, number>();
  // page_size 100 (the maximum) means fewer round trips; the iteration is the same.
  for await (const call of client.calls.list({ source, page_size: 100 })) {
    calls++;
    if (call.is_booked) booked++;
    if (call.is_qualified) qualified++;
    scoreSum += call.score;
    bySource.set(call.source, (bySource.get(call.source) ?? 0) + 1);
  }
  console.log(`${calls} calls`);
  for (const [name, count] of [...bySource].sort()) console.log(`  ${name.padEnd(12)} ${count}`);
  console.log(`booked: ${booked}`);
  console.log(`qualified: ${qualified}`);
  if (calls > 0) console.log(`average score: ${(scoreSum / calls).toFixed(2)}`);
} catch (error) {
  if (!(error instanceof CompanyDataError)) throw error;
  console.error(`Could not read the calls: ${error.message}`);
  process.exitCode = 1;
} finally {
  await client.close();
}
