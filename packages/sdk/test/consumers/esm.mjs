// A plain ESM consumer of the built package. The test passes the mock server's address and key
// through COMPANY_DATA_BASE_URL and COMPANY_DATA_API_KEY, which the client reads by itself.
import { CompanyData, CompanyDataError, NotFoundError, SDK_VERSION } from '@company-data/sdk';

const client = new CompanyData();
const page = await client.users.list({ page_size: 2 });
const user = await client.users.retrieve(page.data[0].id);
let notFound = false;
try {
  await client.teams.retrieve('00000000-0000-4000-8000-000000000000');
} catch (error) {
  notFound =
    error instanceof NotFoundError && error instanceof CompanyDataError && error.code === 'not_found';
}
await client.close();
console.log(
  JSON.stringify({
    format: 'esm',
    version: SDK_VERSION,
    count: page.pagination.count,
    id: user.id,
    notFound,
  }),
);
