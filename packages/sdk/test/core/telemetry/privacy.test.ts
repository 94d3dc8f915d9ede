import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  CompanyData,
  type TracingContext,
  ValidationError,
} from '../../../src/index.js';
import { clientFor, type Target, targets } from '../../support/harness.js';
import { type OtelHarness, startOtel } from '../../support/otel.js';
import { recordTracing, type TracingRecorder } from '../../support/tracing.js';

// What the SDK tells an observer must never carry the API key, a webhook token, or a value the caller sent
// (a phone number, an e-mail address, a name, a query value), nor anything of a response, whether the call
// succeeds, retries or fails (an error's message names the URL, and so the query and a webhook's token).
// One set of calls, recorded at once by both observers: the OpenTelemetry entry's spans, events and
// metrics, and every context of every tracing channel, serialised whole.

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

/** Every own property of a value, the non-enumerable ones of an error (its message and stack) included. */
function serialised(value: unknown): string {
  return JSON.stringify(value, (_key, field: unknown) => {
    if (!(field instanceof Error)) return field;
    return Object.fromEntries(
      Object.getOwnPropertyNames(field).map((name) => [
        name,
        (field as unknown as Record<string, unknown>)[name],
      ]),
    );
  });
}

/** What the OpenTelemetry entry recorded: every span (its attributes, events, status) and every metric point. */
async function recordedByOtel(): Promise<string> {
  return JSON.stringify({
    spans: otel.spans().map((span) => ({
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
}

describe.each(targets)(
  'nothing personal or secret in telemetry or a tracing context ($name)',
  (target: Target) => {
    const opened: { close(): Promise<void> }[] = [];
    let recorder: TracingRecorder | undefined;
    afterEach(async () => {
      recorder?.stop();
      for (const resource of opened.splice(0)) await resource.close();
      await otel.reset();
    });

    it('no key, token, phone, e-mail, name or query value in any span, event, metric or context', async () => {
      const mock = await target.start({ clock: 'frozen', quota: false, sizes: { users: 3, calls: 12 } });
      opened.push(mock);
      const { client } = clientFor(target, mock, { maxRetries: 3 });
      opened.push(client);
      const leadUrl = `${mock.apiRoot}/messaging-agent/webhook/${mock.tokens.lead}/`;
      const [user] = await client.users.list().toArray({ limit: 1 });
      await otel.reset();
      recorder = recordTracing();

      mock.injectFault({ method: 'POST', status: 503, times: 2 });
      await client.leads.submit(mock.tokens.lead, { phone_number: PHONE, customer_name: NAME });
      await client.leads.submit(leadUrl, { phone_number: PHONE, customer_name: NAME });
      await client.audiences.addMember(mock.tokens.audience, { email: EMAIL, phone: PHONE });
      mock.injectFault({ method: 'GET', status: 500 });
      await client.calls.list({ page_size: 5 }).toArray();
      await client.users.retrieve(String(user?.id));
      for await (const _change of client.calls.sync({ params: { page_size: 5 } })) {
        // every change
      }
      // The server refuses a query parameter it does not know; the error's message names the URL, value and all.
      const naming = { status: 400, message: expect.stringContaining(QUERY_VALUE) };
      await expect(
        client.calls.list({ page_size: 5 }, { query: { search: QUERY_VALUE } }).toArray(),
      ).rejects.toMatchObject(naming);
      await expect(client.users.list({}, { query: { note: QUERY_VALUE } })).rejects.toMatchObject(naming);
      await expect(
        client.leads.submit(`${mock.tokens.lead}x`, { phone_number: PHONE }),
      ).rejects.toBeInstanceOf(ValidationError);
      const stranger = new CompanyData({
        apiKey: WRONG_KEY,
        baseURL: mock.baseURL,
        dispatcher: target.dispatcher(mock),
        maxRetries: 0,
      });
      opened.push(stranger);
      await expect(stranger.users.list()).rejects.toBeInstanceOf(AuthenticationError);

      // The checks read what they check: every kind of work, the failures with their codes.
      const spans = otel.spans();
      expect(new Set(spans.map((span) => span.name))).toEqual(
        new Set([
          'leads.submit',
          'audiences.addMember',
          'calls.list iterate',
          'calls.list page',
          'users.retrieve',
          'calls.sync',
          'users.list',
        ]),
      );
      expect(new Set(spans.flatMap((span) => span.attributes['error.type'] ?? []))).toEqual(
        new Set(['bad_request', 'validation_error', 'invalid_api_key']),
      );
      const byOtel = await recordedByOtel();
      expect(byOtel).toContain('company_data.client.request.duration');
      const { contexts } = recorder;
      expect(new Set(contexts.map((context) => (context as { operation: string }).operation))).toEqual(
        new Set(['submitLead', 'addAudienceMember', 'listCalls', 'retrieveUser', 'listUsers']),
      );
      const codes = contexts.flatMap((context) => (context as TracingContext).error?.code ?? []);
      expect(new Set(codes)).toEqual(
        new Set(['server_error', 'bad_request', 'validation_error', 'invalid_api_key']),
      );
      const inContexts = serialised(contexts);
      expect(inContexts).toContain('/messaging-agent/webhook/{webhook_token}/');

      const secrets = [
        mock.keys.valid,
        WRONG_KEY,
        mock.tokens.lead,
        mock.tokens.audience,
        PHONE,
        PHONE.replace(/\D/g, ''),
        EMAIL,
        NAME,
        QUERY_VALUE,
        String(user?.id),
        'Bearer',
      ];
      for (const secret of secrets) expect(byOtel, secret).not.toContain(secret);
      // A context does not even name the server (a span does, as `server.address` and `server.port`).
      for (const secret of [...secrets, mock.baseURL, new URL(mock.baseURL).host])
        expect(inContexts, secret).not.toContain(secret);
    });
  },
);
