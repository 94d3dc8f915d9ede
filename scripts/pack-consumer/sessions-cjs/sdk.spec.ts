// A CommonJS project's test file. vitest runs every test file as an ES module, whatever the package's type,
// and refuses `require('vitest')`: so vitest and useMockSession come by `import`. The SDK comes by
// `require()`, its CommonJS build, as the project's own code loads it.
import { useMockSession } from '@company-data/mock-server/vitest';
import { expect, it } from 'vitest';

const { CompanyData, NotFoundError }: typeof import('@company-data/sdk') = require('@company-data/sdk');

const session = useMockSession({ clock: 'frozen' });

it("the SDK's CommonJS build reads a session of the mock that the CommonJS global setup started", async () => {
  const client = new CompanyData({ apiKey: session.keys.valid, baseURL: session.baseURL });
  try {
    const page = await client.calls.list({ page_size: 5 });
    expect(page.data).toHaveLength(5);
    const missing = client.users.retrieve('00000000-0000-4000-8000-000000000000');
    await expect(missing).rejects.toBeInstanceOf(NotFoundError);
  } finally {
    await client.close();
  }
  await session.verify({
    method: 'GET',
    path: '/v1/calls/',
    query: { page_size: 5 },
    key: 'valid',
    times: 1,
  });
});
