// The checks both consumer scripts run. Each script loads the packages its own way (ESM import or CJS
// require) and hands them here, so the two module systems are exercised with one set of assertions.
const assert = require('node:assert/strict');

const sampleUser = {
  id: '5b3c1f0e-8d2a-4f6b-9c1d-2e3f4a5b6c7d',
  email: 'ada@example.com',
  first_name: 'Ada',
  last_name: 'Lovelace',
  full_name: 'Ada Lovelace',
  is_active: true,
  permissions: ['call_center_ai_coach'],
  created_at: '2026-01-05T10:00:00Z',
};

/**
 * @param {{ contract: any, mockServer: any, sdk: any, otherSdk: any, openapi: any, report: (line: string) => void }} loaded
 *   `otherSdk` is the SDK as the other module system loads it (the ESM build for a CJS script, and back).
 */
async function runChecks({ contract, mockServer, sdk, otherSdk, openapi, report }) {
  const { endpoints, User, UserList } = contract;
  // The contract: schemas parse, reject, and the OpenAPI document is reachable through the exports map.
  assert.deepEqual(User.parse(sampleUser), sampleUser);
  assert.equal(User.safeParse({ ...sampleUser, email: 'not an email' }).success, false);
  assert.match(openapi.openapi, /^3\.1\./);
  assert.ok(Object.keys(openapi.paths).length > 0, 'openapi.json has no paths');
  report(`ok contract (User schema, ${Object.keys(openapi.paths).length} OpenAPI paths)`);

  const server = await mockServer.startMockServer({ port: 0 });
  try {
    assert.match(server.baseURL, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    // Plain HTTP first, as a client in any language would call it.
    const response = await fetch(`${server.baseURL}${endpoints.listUsers.path}`, {
      headers: { authorization: `Bearer ${server.keys.valid}` },
    });
    assert.equal(response.status, 200);
    const users = UserList.parse(await response.json()).data;
    assert.ok(users.length > 0, 'the mock server listed no users');
    report(`ok mock-server on ${new URL(server.baseURL).host} (${users.length} users over fetch)`);

    const client = new sdk.CompanyData({ apiKey: server.keys.valid, baseURL: server.baseURL });
    try {
      const page = await client.users.list();
      assert.ok(page.data.length > 0, 'client.users.list() returned no users');
      const first = User.parse(page.data[0]);
      const user = await client.users.retrieve(first.id);
      assert.equal(user.id, first.id);
      report(`ok sdk (listed ${page.data.length} users, retrieved ${user.full_name})`);
    } finally {
      await client.close();
    }
    await checkErrors(sdk, otherSdk, server);
    report(
      'ok sdk errors (NotFoundError from either build with its body, address and key from the environment)',
    );
    await checkNewcomerMistakes(sdk, server);
    report('ok sdk refuses plain-JavaScript mistakes (a misspelt parameter, the API root as base URL)');
  } finally {
    await server.close();
  }
  // The orchestrator requires the process to exit by itself after this line: nothing may keep it alive.
  report('done');
}

/** @typedef {typeof import('@company-data/sdk')} Sdk */
/** @typedef {import('@company-data/mock-server').MockServer} MockServer */

/**
 * A user's script configures the client by environment; error classes hold across the ESM and CJS builds.
 *
 * @param {Sdk} sdk
 * @param {Sdk} otherSdk - the SDK as the other module system loads it.
 * @param {MockServer} server
 */
async function checkErrors(sdk, otherSdk, server) {
  process.env.COMPANY_DATA_BASE_URL = server.baseURL;
  process.env.COMPANY_DATA_API_KEY = server.keys.valid;
  const client = new sdk.CompanyData();
  try {
    const error = await client.teams.retrieve('00000000-0000-4000-8000-000000000000').then(
      () => assert.fail('an unknown team must be a NotFoundError'),
      (/** @type {unknown} */ caught) => caught,
    );
    assert.ok(error instanceof sdk.NotFoundError && error instanceof sdk.CompanyDataError);
    assert.equal(error.code, 'not_found');
    // The parsed body of the answer travels with the error, as the server sent it.
    assert.deepEqual(error.body, { error: { detail: error.detail } });
    // Each build has its own copy of the classes; instanceof must hold across them, and only for the right class.
    assert.notEqual(otherSdk.NotFoundError, sdk.NotFoundError);
    assert.ok(error instanceof otherSdk.NotFoundError && error instanceof otherSdk.CompanyDataError);
    assert.ok(!(error instanceof otherSdk.RateLimitError));
    assert.ok(new otherSdk.RateLimitError('throttled', 1) instanceof sdk.RateLimitError);
  } finally {
    await client.close();
    delete process.env.COMPANY_DATA_BASE_URL;
    delete process.env.COMPANY_DATA_API_KEY;
  }
}

/**
 * Without a compiler, a misspelt name must still be refused, saying how to fix it, and nothing sent.
 *
 * @param {Sdk} sdk
 * @param {MockServer} server
 */
async function checkNewcomerMistakes(sdk, server) {
  assert.throws(
    () => new sdk.CompanyData({ apiKey: server.keys.valid, baseURL: server.apiRoot }),
    (/** @type {unknown} */ error) =>
      error instanceof sdk.ConfigurationError && error.message.endsWith(`use ${server.baseURL}`),
  );
  const client = new sdk.CompanyData({ apiKey: server.keys.valid, baseURL: server.baseURL });
  const sent = server.journal().length;
  try {
    await assert.rejects(
      // @ts-expect-error: the misspelt name is the point, as a user without a compiler writes it.
      client.calls.list({ souce: 'voice_agent' }),
      (/** @type {unknown} */ error) =>
        error instanceof sdk.ValidationError && error.message.includes('did you mean `source`?'),
    );
    await assert.rejects(
      client.users.list({}, { concurrency: 0 }),
      (/** @type {unknown} */ error) =>
        error instanceof sdk.ValidationError && error.code === 'invalid_option',
    );
    assert.equal(server.journal().length, sent, 'a refused call sent a request');
  } finally {
    await client.close();
  }
}

module.exports = { runChecks };
