// Lists the company's active users, one per line: name, e-mail and permissions, tab-separated.
//
//   COMPANY_DATA_API_KEY=svc_live_… COMPANY_DATA_BASE_URL=https://…/v1 npx tsx examples/list-active-users.ts
import { CompanyData, CompanyDataError } from '@company-data/sdk';

// The key and the base URL come from COMPANY_DATA_API_KEY and COMPANY_DATA_BASE_URL.
const client = new CompanyData();

try {
  let count = 0;
  for await (const user of client.users.list({ is_active: true, page_size: 100 })) {
    console.log([user.full_name, user.email, user.permissions.join(',')].join('\t'));
    count++;
  }
  console.error(`${count} active users`);
} catch (error) {
  if (!(error instanceof CompanyDataError)) throw error;
  console.error(`Could not list users: ${error.message}`);
  process.exitCode = 1;
} finally {
  await client.close();
}
