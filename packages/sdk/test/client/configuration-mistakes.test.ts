import type { MockServer } from '@company-data/mock-server';
import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  CompanyData,
  ConfigurationError,
  ConnectionError,
  NotFoundError,
  ValidationError,
} from '../../src/index.js';
import { caught, clientFor, DEFAULT_MOCK, type Target, targets, wholeList } from '../support/harness.js';

function constructionError(options: ConstructorParameters<typeof CompanyData>[0]): ConfigurationError {
  try {
    new CompanyData(options);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ code: 'invalid_option' });
    return error as ConfigurationError;
  }
  throw new Error('expected new CompanyData() to throw');
}

describe('mistakes refused at construction, saying how to fix them', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('a base URL whose path does not end in /v1 names the corrected URL', () => {
    // The mock's banner prints the API root right under the base URL: the easiest one to copy by mistake.
    expect(constructionError({ baseURL: 'http://127.0.0.1:4010' }).message).toBe(
      "baseURL must be the API's base URL, whose path ends in /v1 (got http://127.0.0.1:4010): use http://127.0.0.1:4010/v1",
    );
    expect(constructionError({ baseURL: 'https://api.example.com/v1/users/' }).message).toContain(
      'use https://api.example.com/v1',
    );
    expect(constructionError({ baseURL: 'https://gw.example.com/company-data' }).message).toContain(
      'use https://gw.example.com/company-data/v1',
    );
    // A query string or fragment after /v1: the fix drops it (and does not add a second /v1).
    expect(constructionError({ baseURL: 'https://api.example.com/v1?tenant=acme' }).message).toBe(
      "baseURL must be the API's base URL, whose path ends in /v1, without a query string or fragment (got https://api.example.com/v1?tenant=acme): use https://api.example.com/v1",
    );
    expect(constructionError({ baseURL: 'https://api.example.com/v1#top' }).message).toMatch(
      /: use https:\/\/api\.example\.com\/v1$/,
    );
    expect(constructionError({ baseURL: 'https://api.example.com/v1/?x=1' }).message).toMatch(
      /: use https:\/\/api\.example\.com\/v1$/,
    );
    vi.stubEnv('COMPANY_DATA_BASE_URL', 'https://api.example.com/');
    expect(constructionError({}).message).toMatch(
      /^COMPANY_DATA_BASE_URL must be .* use https:\/\/api\.example\.com\/v1$/,
    );
    // Without a scheme: https:// added, or http:// on loopback (where the mock listens), and /v1 when missing.
    expect(constructionError({ baseURL: 'api.example.com/v1' }).message).toBe(
      'baseURL must start with https:// or http:// (got api.example.com/v1): use https://api.example.com/v1',
    );
    expect(constructionError({ baseURL: 'localhost:4010/v1' }).message).toMatch(
      /: use http:\/\/localhost:4010\/v1$/,
    );
    expect(constructionError({ baseURL: '127.0.0.1:4010' }).message).toMatch(
      /: use http:\/\/127\.0\.0\.1:4010\/v1$/,
    );
    expect(
      constructionError({ baseURL: 'http://127.0.0.1:4010/v1', apiRoot: '127.0.0.1:4010' }).message,
    ).toMatch(/: use http:\/\/127\.0\.0\.1:4010$/);
    expect(constructionError({ baseURL: 'http://[::1' }).message).toBe(
      'baseURL is not a URL (got http://[::1).',
    );
    expect(constructionError({ baseURL: 'ftp://api.example.com/v1' }).message).toContain(
      'must start with https:// or http://',
    );
    expect(new CompanyData({ baseURL: 'https://gw.example.com/company-data/v1/' }).baseURL).toBe(
      'https://gw.example.com/company-data/v1',
    );
  });

  it('a key given with its Bearer prefix is refused, with a hint and without the key', () => {
    const key = 'svc_live_0123456789abcdef';
    const error = constructionError({ apiKey: `Bearer ${key}` });
    expect(error.message).toBe(
      'apiKey starts with "Bearer ": give the key alone (it starts with svc_live_); the SDK sends it as "Authorization: Bearer <key>" itself.',
    );
    vi.stubEnv('COMPANY_DATA_API_KEY', `bearer ${key}`);
    const fromEnvironment = constructionError({});
    expect(fromEnvironment.message).toMatch(/^COMPANY_DATA_API_KEY starts with "Bearer "/);
    expect(JSON.stringify([error, fromEnvironment, error.message, fromEnvironment.message])).not.toContain(
      key,
    );
  });

  it('an unknown or invalid client option names the closest known one', () => {
    expect(constructionError({ timout: 5_000 } as never).message).toBe(
      'Unknown option for new CompanyData(): `timout` (did you mean `timeout`?). Known options: timeout, maxRetries, maxRetryWait, defaultHeaders, logger, logLevel, validate, hedge, onRateLimit, onRetry, random, apiKey, baseURL, apiRoot, dispatcher, fetch, sleep, now, quota, gate.',
    );
    expect(constructionError({ maxRetry: 3 } as never).message).toContain(
      '`maxRetry` (did you mean `maxRetries`?)',
    );
    expect(constructionError({ base_url: 'https://api.example.com/v1' } as never).message).toContain(
      '`base_url` (did you mean `baseURL`?)',
    );
    expect(constructionError({ headers: { 'x-team': 'data' } } as never).message).toContain(
      '`headers` (a per-request option; for every request, use `defaultHeaders`)',
    );
    expect(constructionError({ logLevel: 'verbose' as never }).message).toContain('logLevel');
    expect(constructionError({ logger: { log: () => undefined } as never }).message).toContain(
      'Expected a logger: an object with debug, info, warn and error methods',
    );
    expect(constructionError({ dispatcher: {} as never }).message).toContain('Expected an undici Dispatcher');
    expect(constructionError({ quota: { requests: 100, perSecond: 60 } as never }).message).toBe(
      'Invalid options for new CompanyData(): ✖ Unknown quota field `perSecond` (did you mean `perSeconds`?): expected requests, perSeconds or marginMs\n  → at quota.perSecond\n✖ Expected a number of seconds above 0\n  → at quota.perSeconds',
    );
  });
});

describe.each(targets)('options that are no object, refused before anything is sent ($name)', (target) => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await target.start();
  });
  afterAll(() => mock.close());

  it('null for the options of every method, the constructor and withOptions() is a ConfigurationError', async () => {
    const { client } = clientFor(target, mock);
    const refused = 'Invalid input: expected object, received null';
    const sent = mock.journal().length;
    const calls: Record<string, () => unknown> = {
      'client.users.retrieve()': () => client.users.retrieve('u_1', null as never),
      'client.users.list()': () => client.users.list({}, null as never),
      'client.calls.list() iterated': async () => {
        for await (const _call of client.calls.list({}, null as never)) break;
      },
      'client.leads.submit()': () =>
        client.leads.submit('token', { phone: '+15555550100' } as never, null as never),
    };
    for (const [method, call] of Object.entries(calls)) {
      const error = await Promise.resolve()
        .then(call)
        .catch((caught: unknown) => caught);
      expect(error, method).toBeInstanceOf(ConfigurationError);
      expect((error as Error).message, method).toContain(refused);
    }
    expect(() => new CompanyData(null as never)).toThrow(
      `Invalid options for new CompanyData(): ✖ ${refused}`,
    );
    expect(() => client.withOptions(null as never)).toThrow(
      `Invalid options for client.withOptions(): ✖ ${refused}`,
    );
    expect(mock.journal().length).toBe(sent);
    await client.close();
  });
});

describe('https:// against a plain-HTTP server', () => {
  const loopback = targets.find((target) => target.name === 'loopback') as Target;
  let mock: MockServer;
  beforeAll(async () => {
    mock = await loopback.start();
  });
  afterAll(() => mock.close());

  it('names the likely cause and the base URL to use, which the SDK then accepts', async () => {
    const { client } = clientFor(loopback, mock, { baseURL: mock.baseURL.replace(/^http:/, 'https:') });
    const error = await client.teams.list({}, { maxRetries: 0 }).then(undefined, (caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConnectionError);
    const origin = new URL(mock.baseURL).origin;
    expect((error as Error).message).toBe(
      `Connection failed: the TLS handshake failed (ERR_SSL_WRONG_VERSION_NUMBER): the server most likely speaks plain HTTP, not HTTPS; if so, use ${mock.baseURL} as the base URL (GET ${origin.replace('http:', 'https:')}/v1/teams/?page=1)`,
    );
    expect(mock.journal()).toEqual([]);
    await client.close();
    // The suggested URL works as written.
    const suggested = /use (\S+) as the base URL/.exec((error as Error).message)?.[1] as string;
    const fixed = clientFor(loopback, mock, { baseURL: suggested }).client;
    await expect(fixed.teams.list({}, { maxRetries: 0 })).resolves.toMatchObject(
      wholeList(DEFAULT_MOCK.teams),
    );
    await fixed.close();
  });
});

describe('nothing listening on a loopback base URL', () => {
  it('says to start the mock server, on the port the base URL names', async () => {
    const loopback = targets.find((target) => target.name === 'loopback') as Target;
    const mock = await loopback.start();
    const baseURL = mock.baseURL;
    const { port } = new URL(baseURL);
    await mock.close();
    const client = new CompanyData({ apiKey: 'svc_live_unused', baseURL, maxRetries: 0 });
    const error = await client.teams.list().then(undefined, (caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toBe(
      `Connection failed: nothing listens on 127.0.0.1:${port} (ECONNREFUSED): start the mock server (npx company-data-mock --port ${port}), or fix the port in the base URL (GET ${baseURL}/teams/?page=1)`,
    );
    await client.close();
  });
});

describe('a host that DNS does not know', () => {
  // The lookup is the machine's resolver answering as it does for a misspelt host (or with no network):
  // undici's own connection code then fails as it would, whatever DNS this machine has.
  const failingLookup = (code: string) =>
    new Agent({
      connect: {
        lookup: (hostname, _options, callback) =>
          callback(Object.assign(new Error(`getaddrinfo ${code} ${hostname}`), { code }), '', 4),
      },
    });

  it('an unknown host (ENOTFOUND) says to check the host of the base URL and where it comes from', async () => {
    const dispatcher = failingLookup('ENOTFOUND');
    const baseURL = 'https://api.company-data.invalid/v1';
    const client = new CompanyData({ apiKey: 'svc_live_unused', baseURL, dispatcher, maxRetries: 0 });
    const error = await client.teams.list().then(undefined, (caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toBe(
      `Connection failed: the host api.company-data.invalid was not found (ENOTFOUND): check the host of the base URL, set in the \`baseURL\` option (GET ${baseURL}/teams/?page=1)`,
    );
    await client.close();
    await dispatcher.close();
  });

  it('a lookup that got no answer (EAI_AGAIN) says to check the network as well', async ({
    onTestFinished,
  }) => {
    const dispatcher = failingLookup('EAI_AGAIN');
    const baseURL = 'https://api.company-data.invalid/v1';
    vi.stubEnv('COMPANY_DATA_BASE_URL', baseURL);
    onTestFinished(() => {
      vi.unstubAllEnvs();
    });
    const client = new CompanyData({ apiKey: 'svc_live_unused', dispatcher, maxRetries: 0 });
    const error = await client.teams.list().then(undefined, (caught: unknown) => caught);
    expect((error as Error).message).toBe(
      `Connection failed: the host api.company-data.invalid could not be looked up (EAI_AGAIN, no answer from DNS): check the network; check the host of the base URL, set in the COMPANY_DATA_BASE_URL environment variable (GET ${baseURL}/teams/?page=1)`,
    );
    await client.close();
    await dispatcher.close();
  });
});

describe.each(targets)("a base URL with a path that is not the API's ($name)", (target) => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await target.start();
  });
  afterAll(() => mock.close());

  it('a 404 on a list, which never answers 404, says to check the path of the base URL', async () => {
    // `/api/v1` for `/v1`: the path ends in /v1, so the client takes it; the server knows no such path.
    const baseURL = mock.baseURL.replace(/\/v1$/, '/api/v1');
    const { client } = clientFor(target, mock, { baseURL });
    const error = await caught(client.teams.list());
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toBe(
      `404 Not found. (GET ${baseURL}/teams/?page=1): a list never answers 404: check the path of the base URL, set in the \`baseURL\` option`,
    );
    await client.close();
  });

  it("a 404 on a by-id call says so when the answer is not the API's own error, and not when it is", async () => {
    const baseURL = mock.baseURL.replace(/\/v1$/, '/api/v1');
    const { client } = clientFor(target, mock, { baseURL });
    const id = '00000000-0000-4000-8000-000000000000';
    // A gateway's page in front of the API, for the path it does not know.
    mock.injectFault({ path: `/api/v1/teams/${id}/`, status: 404, htmlPage: true });
    const page = await caught(client.teams.retrieve(id));
    expect(page).toBeInstanceOf(NotFoundError);
    expect(page.message).toBe(
      `404 text/html; charset=utf-8 body: 404 Not Found 404 Not Found mock-proxy (GET ${baseURL}/teams/${id}/): not the API's own error: check the path of the base URL, set in the \`baseURL\` option`,
    );
    // The API's own JSON 404 may be an unknown id: nothing is said of the base URL.
    const own = await caught(client.teams.retrieve(id));
    expect(own.message).toBe(`404 Not found. (GET ${baseURL}/teams/${id}/)`);
    await client.close();
    // With the right base URL, an unknown id's 404 is as plain.
    const right = clientFor(target, mock).client;
    expect((await caught(right.teams.retrieve(id))).message).toBe(
      `404 Not found. (GET ${mock.baseURL}/teams/${id}/)`,
    );
    await right.close();
  });
});
