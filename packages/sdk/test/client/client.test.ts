import type { MockServer } from '@company-data/mock-server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ClientClosedError, CompanyData, ConfigurationError, ConnectionError } from '../../src/index.js';
import {
  clientFor,
  DEFAULT_MOCK,
  recordingLogger,
  type Target,
  targets,
  wholeList,
} from '../support/harness.js';

describe.each(targets)('client configuration ($name)', (target: Target) => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await target.start();
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    mock.reset();
  });
  afterAll(() => mock.close());

  it('falls back to COMPANY_DATA_API_KEY and COMPANY_DATA_BASE_URL', async () => {
    vi.stubEnv('COMPANY_DATA_API_KEY', mock.keys.valid);
    vi.stubEnv('COMPANY_DATA_BASE_URL', `${mock.baseURL}/`);
    const client = new CompanyData({ dispatcher: target.dispatcher(mock) });
    expect(client.baseURL).toBe(mock.baseURL);
    expect(client.apiRoot).toBe(mock.apiRoot);
    await expect(client.users.list()).resolves.toMatchObject(wholeList(DEFAULT_MOCK.users));
    await client.close();
  });

  it('prefers explicit options to the environment', async () => {
    vi.stubEnv('COMPANY_DATA_API_KEY', mock.keys.revoked);
    vi.stubEnv('COMPANY_DATA_BASE_URL', 'http://wrong.invalid/v1');
    const client = new CompanyData({
      apiKey: mock.keys.valid,
      baseURL: mock.baseURL,
      dispatcher: target.dispatcher(mock),
    });
    await expect(client.teams.list()).resolves.toMatchObject(wholeList(DEFAULT_MOCK.teams));
    await client.close();
  });

  it('a refused key read from COMPANY_DATA_API_KEY: the 401 says to check that variable (derived clients too)', async () => {
    vi.stubEnv('COMPANY_DATA_API_KEY', mock.keys.revoked);
    const client = new CompanyData({ baseURL: mock.baseURL, dispatcher: target.dispatcher(mock) });
    const hint = ': check the API key in the COMPANY_DATA_API_KEY environment variable';
    await expect(client.users.list()).rejects.toThrow(
      `401 Invalid API key. (GET ${mock.baseURL}/users/?page=1)${hint}`,
    );
    await expect(client.withOptions({ maxRetries: 0 }).teams.list()).rejects.toThrow(hint);
    // A key the caller sent in its own header is that header's to check.
    const own = client.withOptions({ defaultHeaders: { Authorization: `Bearer ${mock.keys.expired}` } });
    await expect(own.calls.list()).rejects.toThrow(
      /^401 API key has expired\. \(GET .*\): check the API key in the `authorization` header you set$/,
    );
    await client.close();
  });

  it('reports a missing key, naming COMPANY_DATA_API_KEY, at the first call that needs one', async () => {
    vi.stubEnv('COMPANY_DATA_API_KEY', '');
    const client = new CompanyData({ baseURL: mock.baseURL, dispatcher: target.dispatcher(mock) });
    const error = await client.users.list().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error).toMatchObject({ code: 'missing_api_key' });
    expect((error as Error).message).toMatch(/COMPANY_DATA_API_KEY/);
    // Webhooks need no key.
    await expect(client.leads.submit(mock.tokens.lead, { phone_number: '4155550100' })).resolves.toEqual({
      received: true,
    });
    await client.close();
  });

  it('reports a missing base URL, naming COMPANY_DATA_BASE_URL; a full webhook URL needs none', async () => {
    vi.stubEnv('COMPANY_DATA_BASE_URL', '');
    const client = new CompanyData({ apiKey: mock.keys.valid, dispatcher: target.dispatcher(mock) });
    expect(client.baseURL).toBeUndefined();
    await expect(client.calls.list()).rejects.toMatchObject({ code: 'missing_base_url' });
    await expect(client.leads.submit(mock.tokens.lead, { phone_number: '4155550100' })).rejects.toThrow(
      /COMPANY_DATA_BASE_URL/,
    );
    const url = `${mock.apiRoot}/messaging-agent/webhook/${mock.tokens.lead}/`;
    await expect(client.leads.submit(url, { phone_number: '4155550100' })).resolves.toEqual({
      received: true,
    });
    await client.close();
  });

  it('rejects invalid options at construction', () => {
    expect(() => new CompanyData({ baseURL: 'not a url' })).toThrow(ConfigurationError);
    expect(() => new CompanyData({ apiRoot: '::' })).toThrow(/apiRoot/);
    expect(() => new CompanyData({ timeout: 0 })).toThrow(/timeout/);
    expect(() => new CompanyData({ maxRetries: -1 })).toThrow(/maxRetries/);
    expect(() => new CompanyData({ maxRetryWait: Number.NaN })).toThrow(/maxRetryWait/);
  });

  it('derives apiRoot by dropping /v1, unless given', () => {
    expect(new CompanyData({ baseURL: 'https://api.example.com/v1/' }).apiRoot).toBe(
      'https://api.example.com',
    );
    expect(new CompanyData({ baseURL: 'https://a.example/v1', apiRoot: 'https://b.example/' }).apiRoot).toBe(
      'https://b.example',
    );
  });

  it('sends default headers and per-request headers, the latter winning', async () => {
    const { client } = clientFor(target, mock, {
      defaultHeaders: { 'X-Team': 'data', 'X-Trace': 'default' },
    });
    await client.teams.list({}, { headers: { 'X-Trace': 'call-42' } });
    expect(mock.journal()[0]?.headers).toMatchObject({ 'x-team': 'data', 'x-trace': 'call-42' });
    await client.close();
  });

  it('never logs the API key, whatever happens', async () => {
    const logger = recordingLogger();
    const { client } = clientFor(target, mock, { logger, logLevel: 'debug' });
    mock.injectFault({ path: '/v1/users/', status: 429, headers: { 'Retry-After': '1' } });
    mock.injectFault({ path: '/v1/users/', status: 503 });
    await client.users.list();
    await client.calls.list({}, { onCountChange: () => undefined }).toArray({ limit: 30 });
    await client.users.retrieve('00000000-0000-4000-8000-000000000000').catch(() => undefined);
    await client.leads.submit(mock.tokens.lead, { phone_number: '4155550100' });
    expect(logger.lines.length).toBeGreaterThan(5);
    const written = JSON.stringify(logger.lines);
    expect(written).not.toContain(mock.keys.valid);
    expect(written).not.toContain(mock.tokens.lead);
    expect(logger.lines.map((line) => line.level)).toEqual(expect.arrayContaining(['debug', 'info', 'warn']));
    await client.close();
  });

  it('defaults to warnings only, on the console', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => undefined);
    const client = new CompanyData({
      apiKey: mock.keys.valid,
      baseURL: mock.baseURL,
      dispatcher: target.dispatcher(mock),
      sleep: async () => undefined,
    });
    mock.injectFault({ path: '/v1/teams/', status: 429, headers: { 'Retry-After': '1' } });
    await client.teams.list();
    expect(debug).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledOnce();
    warn.mockRestore();
    debug.mockRestore();
    await client.close();
  });

  it('close() releases the pool; later calls fail with client_closed, no ConnectionError; close is idempotent', async () => {
    const { client } = clientFor(target, mock);
    await client.teams.list();
    await client.close();
    await client.close();
    const error = await client.teams.list().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ClientClosedError);
    expect(error).not.toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ code: 'client_closed' });
    expect((error as Error).message).toContain(`GET ${mock.baseURL}/teams/?page=1`);
    await expect(client.users.retrieve('00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(
      ClientClosedError,
    );
    expect(mock.journal()).toHaveLength(1);
  });

  it('a call made in the same turn as close() fails with client_closed, and nothing is sent', async () => {
    const { client } = clientFor(target, mock);
    const list = client.teams.list().then(undefined, (caught: unknown) => caught);
    const retrieve = client.users
      .retrieve('00000000-0000-4000-8000-000000000000')
      .then(undefined, (caught: unknown) => caught);
    await client.close();
    expect(await list).toBeInstanceOf(ClientClosedError);
    expect(await retrieve).toBeInstanceOf(ClientClosedError);
    expect(mock.journal()).toHaveLength(0);
  });

  it('a call waiting for a rate-limit pause when the client closes fails with client_closed', async () => {
    // The pause lasts until the client's closing ends it.
    const { client } = clientFor(target, mock, {
      sleep: (_ms, signal) => new Promise((resolve) => signal?.addEventListener('abort', () => resolve())),
    });
    mock.injectFault({ path: '/v1/teams/', status: 429, headers: { 'Retry-After': '30' } });
    const throttled = client.teams.list().then(undefined, (caught: unknown) => caught);
    await vi.waitFor(() => expect(mock.journal()).toHaveLength(1));
    await client.close();
    const error = await throttled;
    expect(error).toBeInstanceOf(ClientClosedError);
    expect(error).not.toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toBe(
      `The client is closed: close() was called before GET ${mock.baseURL}/teams/?page=1 could complete. Create a new CompanyData for more calls.`,
    );
    expect(mock.journal()).toHaveLength(1);
  });
});
