import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AuthenticationError, CompanyData, ValidationError } from '../../../src/index.js';
import { clientFor, type Target, targets } from '../../support/harness.js';
import { type OtelHarness, startOtel } from '../../support/otel.js';

// What the SDK's spans, events and metrics must never carry: the API key, a webhook token, or a value the
// caller sent (a phone number, an e-mail address, a name, a query value), whether the call succeeds,
// retries or fails (an error's message names the URL, and so the query and a webhook's token).

let otel: OtelHarness;
beforeAll(() => {
  otel = startOtel();
});
afterAll(async () => {
  await otel.stop();
});

const PHONE = '+1 415 555 0199';
const EMAIL = 'grace.private@example.com';
const NAME = 'Grace Privatehopper';
const QUERY_VALUE = 'secret-query-value-7731';
const WRONG_KEY = 'svc_live_wrongbutsecret000000000000';

describe.each(targets)('nothing personal or secret in telemetry ($name)', (target: Target) => {
  const opened: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const resource of opened.splice(0)) await resource.close();
    await otel.reset();
  });

  it('records no key, token, phone, e-mail, name or query value in any span, event or metric', async () => {
    const mock = await target.start({ clock: 'frozen', quota: false, sizes: { users: 3, calls: 12 } });
    opened.push(mock);
    const { client } = clientFor(target, mock, { maxRetries: 3 });
    opened.push(client);
    const leadUrl = `${mock.apiRoot}/messaging-agent/webhook/${mock.tokens.lead}/`;

    mock.injectFault({ method: 'POST', status: 503, times: 2 });
    await client.leads.submit(mock.tokens.lead, { phone_number: PHONE, customer_name: NAME });
    await client.leads.submit(leadUrl, { phone_number: PHONE, customer_name: NAME });
    await client.audiences.addMember(mock.tokens.audience, { email: EMAIL, phone: PHONE });
    mock.injectFault({ method: 'GET', status: 500 });
    await client.calls.list({ page_size: 5 }).toArray();
    // The server refuses a query parameter it does not know; the error's message names the URL, value and all.
    const naming = { status: 400, message: expect.stringContaining(QUERY_VALUE) };
    await expect(
      client.calls.list({ page_size: 5 }, { query: { search: QUERY_VALUE } }).toArray(),
    ).rejects.toMatchObject(naming);
    await expect(client.users.list({}, { query: { note: QUERY_VALUE } })).rejects.toMatchObject(naming);
    await expect(client.leads.submit(`${mock.tokens.lead}x`, { phone_number: PHONE })).rejects.toBeInstanceOf(
      ValidationError,
    );
    const stranger = new CompanyData({
      apiKey: WRONG_KEY,
      baseURL: mock.baseURL,
      dispatcher: target.dispatcher(mock),
      maxRetries: 0,
    });
    opened.push(stranger);
    await expect(stranger.users.list()).rejects.toBeInstanceOf(AuthenticationError);

    const spans = otel.spans();
    expect(spans.length).toBeGreaterThanOrEqual(9);
    expect(spans.some((span) => span.attributes['error.type'] === 'invalid_api_key')).toBe(true);
    const recorded = JSON.stringify({
      spans: spans.map((span) => ({
        name: span.name,
        attributes: span.attributes,
        events: span.events.map((event) => ({ name: event.name, attributes: event.attributes })),
        status: span.status,
        links: span.links,
      })),
      metrics: (await otel.metrics()).scopeMetrics.flatMap((scope) =>
        scope.metrics.map((metric) => ({
          name: metric.descriptor.name,
          attributes: metric.dataPoints.map((point) => point.attributes),
        })),
      ),
    });
    // The check reads what it checks: the recording holds the calls' spans and metrics.
    expect(recorded).toContain('submitLead');
    expect(recorded).toContain('company_data.client.request.duration');
    for (const secret of [
      mock.keys.valid,
      WRONG_KEY,
      mock.tokens.lead,
      mock.tokens.audience,
      PHONE,
      PHONE.replace(/\D/g, ''),
      EMAIL,
      NAME,
      QUERY_VALUE,
      'Bearer',
    ]) {
      expect(recorded, secret).not.toContain(secret);
    }
  });
});
