import type { MockServer } from '@company-data/mock-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type CompanyData, NotFoundError, ValidationError } from '../../src/index.js';
import { clientFor, type Target, targets } from '../support/harness.js';

describe.each(targets)('webhooks ($name)', (target: Target) => {
  let mock: MockServer;
  let client: CompanyData;
  beforeAll(async () => {
    mock = await target.start();
    // Webhooks need no API key: the token in the path authenticates. Retries wait on the mock's clock.
    client = clientFor(target, mock, { apiKey: '' }).client;
  });
  beforeEach(() => mock.reset());
  afterAll(async () => {
    await client.close();
    await mock.close();
  });
  const audienceUrl = () => `${mock.baseURL}/outbound-campaigns/webhook/${mock.tokens.audience}/`;
  const leadUrl = () => `${mock.apiRoot}/messaging-agent/webhook/${mock.tokens.lead}/`;

  it('adds an audience member by token (201), then returns the same member for the same phone (200)', async () => {
    const created = await client.audiences
      .addMember(mock.tokens.audience, {
        first_name: 'Ada',
        last_name: 'Lovelace',
        phone: '(415) 555-0123',
        email: 'ada@example.com',
        custom_fields: { plan: 'gold' },
      })
      .withResponse();
    expect(created.response.status).toBe(201);
    expect(created.data).toMatchObject({ first_name: 'Ada', phone: '+14155550123', status: 'active' });
    expect(created.data.custom_fields).toEqual({ plan: 'gold' });
    const again = await client.audiences
      .addMember(audienceUrl(), { phone: '+1 415-555-0123', email: 'other@example.com' })
      .withResponse();
    expect(again.response.status).toBe(200);
    expect(again.data.id).toBe(created.data.id);
    const byEmail = await client.audiences.addMember(mock.tokens.audience, {
      email: 'ADA@example.com',
      phone: '415 555 0199',
    });
    expect(byEmail.id).toBe(created.data.id);
    expect(mock.members(mock.tokens.audience)).toHaveLength(1);
    const entry = mock.journal()[0];
    expect(entry?.path).toBe(`/v1/outbound-campaigns/webhook/${mock.tokens.audience}/`);
    expect(entry?.headers.authorization).toBeUndefined();
    expect(entry?.headers['content-type']).toBe('application/json');
  });

  it('accepts a member with only a phone or only an email; the other comes back empty', async () => {
    const byPhone = await client.audiences.addMember(mock.tokens.audience, { phone: '415 555 0188' });
    expect(byPhone).toMatchObject({ phone: '+14155550188', email: '' });
    const byEmail = await client.audiences.addMember(mock.tokens.audience, { email: 'only@example.com' });
    expect(byEmail).toMatchObject({ phone: '', email: 'only@example.com' });
  });

  // The server's deduplication window is the mock's rule, tested once in the mock server's engine tests.
  it('submits a lead by token and by URL, to the lead source’s webhook, with the body as given', async () => {
    await expect(client.leads.submit(mock.tokens.lead, { phone_number: '415-555-0100' })).resolves.toEqual({
      received: true,
    });
    await expect(
      client.leads.submit(leadUrl(), { phone_number: '(415) 555-0100', customer_name: 'Grace Hopper' }),
    ).resolves.toEqual({ received: true });
    expect(mock.journal().map((entry) => [entry.method, entry.path, entry.body])).toEqual([
      ['POST', `/messaging-agent/webhook/${mock.tokens.lead}/`, { phone_number: '415-555-0100' }],
      [
        'POST',
        `/messaging-agent/webhook/${mock.tokens.lead}/`,
        { phone_number: '(415) 555-0100', customer_name: 'Grace Hopper' },
      ],
    ]);
    expect(mock.leads().map((lead) => lead.status)).toEqual(['queued', 'queued']);
  });

  it('retries a webhook safely: a dropped first attempt does not duplicate the member or the lead', async () => {
    mock.injectFault({ method: 'POST', drop: true });
    const member = await client.audiences
      .addMember(
        mock.tokens.audience,
        { phone: '415 555 0177', email: 'retry@example.com' },
        { maxRetries: 1 },
      )
      .withResponse();
    expect(member.response.status).toBe(201);
    mock.injectFault({ method: 'POST', drop: true });
    await client.leads.submit(mock.tokens.lead, { phone_number: '415 555 0177' }, { maxRetries: 1 });
    mock.injectFault({ method: 'POST', status: 503 });
    await client.leads.submit(mock.tokens.lead, { phone_number: '415 555 0177' });
    expect(mock.members(mock.tokens.audience)).toHaveLength(1);
    // One lead per submit: the dropped and the refused attempts were never processed (whether two leads for
    // one phone share a conversation is the server's rule, tested in the mock server's engine tests).
    expect(mock.leads()).toHaveLength(2);
    expect(mock.journal().map((entry) => entry.status)).toEqual([null, 201, null, 200, 503, 200]);
  });

  it('maps the lead webhook’s flat errors into the same classes', async () => {
    const unknown = await client.leads
      .submit(mock.tokens.deletedLead, { phone_number: '415-555-0100' })
      .catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(NotFoundError);
    expect(unknown).toMatchObject({ status: 404, detail: 'Not found', code: 'not_found' });
    mock.injectFault({ method: 'POST', status: 400, body: { error: 'phone_number is required' } });
    await expect(client.leads.submit(mock.tokens.lead, { phone_number: 'x' })).rejects.toMatchObject({
      code: 'bad_request',
      detail: 'phone_number is required',
    });
  });

  it('an unknown audience token is a NotFoundError', async () => {
    await expect(
      client.audiences.addMember('00000000-0000-4000-8000-000000000000', {
        email: 'a@example.com',
        phone: '4155550123',
      }),
    ).rejects.toMatchObject({ status: 404, detail: 'Not found.' });
  });

  it('rejects the wrong webhook’s URL, a bad token or a body without contact, sending nothing', async () => {
    await expect(client.audiences.addMember(leadUrl(), { email: 'a@example.com' })).rejects.toThrow(
      /client\.leads\.submit/,
    );
    await expect(client.leads.submit(audienceUrl(), { phone_number: '4155550123' })).rejects.toThrow(
      /client\.audiences\.addMember/,
    );
    await expect(client.leads.submit('not-a-token', { phone_number: '4155550123' })).rejects.toBeInstanceOf(
      ValidationError,
    );
    await expect(client.audiences.addMember(mock.tokens.audience, {})).rejects.toThrow(/phone or email/);
    expect(mock.journal()).toHaveLength(0);
  });

  it('posts the lead under apiRoot, which can be overridden', async () => {
    const custom = clientFor(target, mock, {
      baseURL: 'http://unused.invalid/v1',
      apiRoot: mock.apiRoot,
    }).client;
    await expect(custom.leads.submit(mock.tokens.lead, { phone_number: '4155550111' })).resolves.toEqual({
      received: true,
    });
    await custom.close();
  });
});
