import type { MockServer } from '@company-data/mock-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  BadRequestError,
  CompanyDataError,
  ConfigurationError,
  InvalidResponseError,
  NotFoundError,
  PermissionDeniedError,
  ValidationError,
} from '../../src/index.js';
import { caught, clientFor, DEFAULT_MOCK, type Target, targets, wholeList } from '../support/harness.js';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe.each(targets)('errors from the server ($name)', (target: Target) => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await target.start();
  });
  beforeEach(() => mock.reset());
  afterAll(() => mock.close());
  const client = (apiKey = mock.keys.valid, validate = true) =>
    clientFor(target, mock, { apiKey, validate }).client;

  it('401 for a revoked key: AuthenticationError, reason invalid_key', async () => {
    const error = await caught(client(mock.keys.revoked).users.list());
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({
      status: 401,
      reason: 'invalid_key',
      code: 'invalid_api_key',
      detail: 'Invalid API key.',
    });
    expect(error.headers['content-type']).toContain('application/json');
    // The message says which setting to check: here the key was given as the `apiKey` option.
    expect(error.message).toBe(
      `401 Invalid API key. (GET ${mock.baseURL}/users/?page=1): check the API key in the \`apiKey\` option`,
    );
  });

  it('401 for an expired key: AuthenticationError, reason expired_key', async () => {
    const error = await caught(client(mock.keys.expired).calls.list());
    expect(error).toMatchObject({ status: 401, reason: 'expired_key', code: 'expired_api_key' });
    expect(error.detail).toBe('API key has expired.');
    expect(error.message).toMatch(
      /^401 API key has expired\. \(GET .*\): check the API key in the `apiKey` option$/,
    );
  });

  it('a key expired by the clock is told apart too', async () => {
    const key = mock.createKey({ expiresAt: new Date(mock.clock.now().getTime() + 60_000) });
    await expect(client(key).teams.list()).resolves.toMatchObject(wholeList(DEFAULT_MOCK.teams));
    mock.clock.advance(61_000);
    await expect(client(key).teams.list()).rejects.toMatchObject({ reason: 'expired_key' });
  });

  it('403 for a key lacking the permission: PermissionDeniedError', async () => {
    const limited = client(mock.keys.limited);
    await expect(limited.users.list()).resolves.toMatchObject(wholeList(DEFAULT_MOCK.users));
    const error = await caught(limited.calls.list());
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect(error).toMatchObject({ status: 403, code: 'permission_denied' });
    await expect(client(mock.keys.noPermissions).users.list()).rejects.toBeInstanceOf(PermissionDeniedError);
  });

  it('404 for an unknown id and for another company’s id: NotFoundError', async () => {
    const error = await caught(client().calls.retrieve(UNKNOWN_ID));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, detail: 'Not found.', code: 'not_found' });
    const [foreign] = await client(mock.keys.otherCompany).users.list().toArray({ limit: 1 });
    await expect(client().users.retrieve(foreign?.id ?? '')).rejects.toBeInstanceOf(NotFoundError);
    await expect(client().recordings.transcript(UNKNOWN_ID)).rejects.toBeInstanceOf(NotFoundError);
    await expect(client().calls.transcript(UNKNOWN_ID)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('400 from the server: BadRequestError with its detail', async () => {
    const error = await caught(
      client().audiences.addMember(mock.tokens.audience, { phone: '12', email: 'x@example.com' }),
    );
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ status: 400, code: 'bad_request' });
    expect(error.detail).toMatch(/phone/);
  });

  it('an unexpected status: the root class with code unexpected_status', async () => {
    mock.injectFault({ path: '/v1/teams/', status: 409, body: { error: { detail: 'Conflict.' } } });
    const error = await caught(client().teams.list());
    expect(error.constructor).toBe(CompanyDataError);
    expect(error).toMatchObject({ code: 'unexpected_status', status: 409, detail: 'Conflict.' });
  });

  it('a body that fails the schema: InvalidResponseError with the zod issues; validate: false lets it through', async () => {
    const broken = {
      data: [{ id: 'not-a-uuid' }],
      pagination: { count: 1, page: 1, page_size: 25, total_pages: 1 },
    };
    mock.injectFault({ path: '/v1/teams/', status: 200, body: broken });
    const error = await caught(client().teams.list());
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as InvalidResponseError).issues.length).toBeGreaterThan(0);
    expect((error as InvalidResponseError).issues[0]?.path).toEqual(['data', 0, 'id']);
    expect(error.status).toBe(200);
    mock.injectFault({ path: '/v1/teams/', status: 200, body: broken });
    const page = await client(mock.keys.valid, false).teams.list();
    expect(page.data).toEqual(broken.data);
  });

  it('a success body that is not JSON: InvalidResponseError', async () => {
    mock.injectFault({ path: '/v1/teams/', status: 200, body: '<html>oops</html>' });
    const error = await caught(client().teams.list());
    expect(error).toMatchObject({ code: 'invalid_response', issues: [] });
  });

  it('client-side validation: ValidationError, and nothing is sent', async () => {
    const cases: PromiseLike<unknown>[] = [
      client().calls.list({ page_size: 500 }),
      client().calls.list({ page: 0 }),
      client().calls.list({ ordering: 'name' as never }),
      client().calls.list({ source: 'fax' as never }),
      client().users.retrieve('42'),
      client().audiences.addMember(mock.tokens.audience, { first_name: 'No contact' }),
      client().leads.submit(mock.tokens.lead, { phone_number: '  ' }),
      client().leads.submit(mock.tokens.lead, {} as never),
    ];
    for (const pending of cases) {
      const error = await caught(pending);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues.length).toBeGreaterThan(0);
    }
    expect(mock.journal()).toHaveLength(0);
  });

  it('a configuration problem: ConfigurationError before any request', async () => {
    const noKey = clientFor(target, mock, { apiKey: undefined }).client;
    const previous = process.env.COMPANY_DATA_API_KEY;
    delete process.env.COMPANY_DATA_API_KEY;
    try {
      const keyless = clientFor(target, mock, { apiKey: '' }).client;
      const error = await caught(keyless.users.list());
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error.code).toBe('missing_api_key');
      expect(error.message).toContain('COMPANY_DATA_API_KEY');
      await expect(noKey.teams.retrieve(UNKNOWN_ID)).rejects.toBeInstanceOf(ConfigurationError);
    } finally {
      if (previous !== undefined) process.env.COMPANY_DATA_API_KEY = previous;
    }
    expect(mock.journal()).toHaveLength(0);
  });

  it('error messages carry the method and the URL that was requested', async () => {
    const { client } = clientFor(target, mock);
    const notFound = await client.users.retrieve(UNKNOWN_ID).then(undefined, (caught: unknown) => caught);
    expect(notFound).toBeInstanceOf(NotFoundError);
    expect((notFound as Error).message).toBe(`404 Not found. (GET ${mock.baseURL}/users/${UNKNOWN_ID}/)`);
    const limited = clientFor(target, mock, { apiKey: mock.keys.limited }).client;
    const error = await limited.calls
      .list({ source: 'voice_agent', page_size: 10 })
      .then(undefined, (caught: unknown) => caught);
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect((error as Error).message).toBe(
      `403 You do not have permission to perform this action. (GET ${mock.baseURL}/calls/?source=voice_agent&page_size=10&page=1)`,
    );
    expect((error as Error).message).not.toContain(mock.keys.limited);
    await client.close();
    await limited.close();
  });

  it('a webhook token never appears in a message or a log line: it is redacted from the URL', async () => {
    const { client, logger } = clientFor(target, mock);
    const error = await client.leads
      .submit(mock.tokens.deletedLead, { phone_number: '4155550100' })
      .then(undefined, (caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as Error).message).toBe(
      `404 Not found (POST ${mock.apiRoot}/messaging-agent/webhook/[redacted]/)`,
    );
    const logged = JSON.stringify(logger.lines);
    expect(logged).toContain('/messaging-agent/webhook/[redacted]/');
    expect(logged).not.toContain(mock.tokens.deletedLead);
    await client.close();
  });
});
