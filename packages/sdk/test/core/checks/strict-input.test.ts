import type { MockServer } from '@company-data/mock-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  BadRequestError,
  type CompanyData,
  type CompanyDataError,
  ConfigurationError,
  ValidationError,
} from '../../../src/index.js';
import { clientFor, type Target, targets } from '../../support/harness.js';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** What a call was refused with; fails the test when it was not refused. */
async function refusal(call: () => PromiseLike<unknown>): Promise<ValidationError> {
  const error = await Promise.resolve()
    .then(call)
    .then(
      () => undefined,
      (caught: unknown) => caught,
    );
  expect(error).toBeInstanceOf(ValidationError);
  return error as ValidationError;
}

// A JavaScript caller has no compiler to catch a misspelt name: each one below used to be dropped silently
// (a filter ignored, a page of everything, a lead without its name). Now each is refused before sending.
describe.each(targets)('strict input ($name)', (target: Target) => {
  let mock: MockServer;
  let client: CompanyData;
  beforeAll(async () => {
    mock = await target.start();
    client = clientFor(target, mock).client;
  });
  beforeEach(() => mock.reset());
  afterAll(async () => {
    await client.close();
    await mock.close();
  });
  // `as never`: calls as plain JavaScript makes them, which the types refuse at compile time.
  it('an unknown parameter names the closest known one and the `query` option, and sends nothing', async () => {
    const souce = await refusal(() => client.calls.list({ souce: 'voice_agent' } as never));
    expect(souce.message).toBe(
      'Unknown parameter for client.calls.list(): `souce` (did you mean `source`?). Known parameters: ordering, page, page_size, source. To send a parameter the SDK does not know yet, pass it in the `query` option: list(params, { query: { name: value } }).',
    );
    expect(souce).not.toBeInstanceOf(ConfigurationError);
    expect(souce.code).toBe('validation_error');
    expect(souce.issues).toEqual([expect.objectContaining({ code: 'unrecognized_keys', path: ['souce'] })]);
    const isActive = await refusal(() => client.users.list({ isActive: true } as never));
    expect(isActive.message).toContain('`isActive` (did you mean `is_active`?)');
    const two = await refusal(() => client.teams.list({ pagesize: 5, colour: 'red' } as never));
    expect(two.message).toContain(
      'Unknown parameters for client.teams.list(): `pagesize` (did you mean `page_size`?), `colour`.',
    );
    expect(two.issues).toHaveLength(2);
    const option = await refusal(() => client.calls.list({ concurrency: 4 } as never));
    expect(option.message).toContain('`concurrency` (an option: pass it in the second argument)');
    expect(mock.journal()).toEqual([]);
  });

  it('list options are all checked before anything is sent, however the list is consumed', async () => {
    const consumers: [string, (list: ReturnType<CompanyData['calls']['list']>) => Promise<unknown>][] = [
      ['await', async (list) => await list],
      [
        'for await',
        async (list) => {
          for await (const _call of list) return;
        },
      ],
      ['pages()', async (list) => list.pages().next()],
      ['toArray()', async (list) => list.toArray()],
      ['withResponse()', async (list) => list.withResponse()],
      ['asResponse()', async (list) => list.asResponse()],
    ];
    for (const [name, consume] of consumers) {
      const error = await refusal(() => consume(client.calls.list({}, { concurrency: 0 })));
      expect(error, name).toBeInstanceOf(ConfigurationError);
      expect(error).toMatchObject({ code: 'invalid_option' });
      expect(error.message).toContain('Expected an integer from 1 to 16');
      expect(error.message).toContain('concurrency');
    }
    const cases: [() => PromiseLike<unknown>, string][] = [
      [() => client.calls.list({}, { concurency: 4 } as never), '`concurency` (did you mean `concurrency`?)'],
      [
        () => client.calls.list({}, { page_size: 100 } as never),
        '`page_size` (a parameter: pass it in the first argument)',
      ],
      [
        () => client.users.retrieve(UNKNOWN_ID, { timout: 5_000 } as never),
        '`timout` (did you mean `timeout`?)',
      ],
      [() => client.users.retrieve(UNKNOWN_ID, { timeout: 0 }), 'Expected a number of milliseconds from 1'],
      [() => client.users.retrieve(UNKNOWN_ID, { timeout: 2 ** 31 }), 'to 2147483647'],
      [() => client.users.retrieve(UNKNOWN_ID, { maxRetries: 1.5 }), 'Expected an integer of at least 0'],
      [
        () => client.teams.list({}, { headers: { 'x-count': 1 as never } }),
        'Expected header values to be strings',
      ],
      [() => client.teams.list({}, { signal: 'stop' as never }), 'Expected an AbortSignal'],
      [() => client.teams.list({}, { onCountChange: true as never }), 'Expected a function'],
      [
        () => client.teams.list({}, { query: { tags: ['a'] as never } }),
        'Expected a string, number or boolean',
      ],
      [
        () => client.leads.submit(mock.tokens.lead, { phone_number: '4155550100' }, { bdy: {} } as never),
        '`bdy` (did you mean `body`?)',
      ],
      [
        () =>
          client.leads.submit(mock.tokens.lead, { phone_number: '4155550100' }, { zip: '94103' } as never),
        '`zip` (a body field: pass it in the second argument)',
      ],
    ];
    for (const [call, expected] of cases) {
      const error = await refusal(call);
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error.message).toContain(expected);
    }
    expect(mock.journal()).toEqual([]);
  });

  it('toArray() refuses a misspelt limit instead of loading the whole list', async () => {
    const list = client.calls.list();
    await list;
    const error = await refusal(() => list.toArray({ limt: 10 } as never));
    expect(error.message).toContain('`limt` (did you mean `limit`?)');
    await expect(list.toArray({ limit: -1 })).rejects.toThrow('Expected an integer of at least 0');
    // Only the first page was requested, when list() was called.
    expect(mock.journal()).toHaveLength(1);
  });

  it('a webhook body field the contract does not declare is refused, pointing to custom_fields and the body option', async () => {
    const typo = await refusal(() =>
      client.leads.submit(mock.tokens.lead, { phone_number: '4155550100', customer_nme: 'Ada' } as never),
    );
    expect(typo.message).toBe(
      'Unknown field for client.leads.submit(): `customer_nme` (did you mean `customer_name`?). Known fields: phone_number, customer_name, email, address, city, state, zip, notes, service_type, page_url, utm_source, utm_medium, utm_campaign, custom_fields. Free-form data the API keeps for you goes in `custom_fields`; to send a field the SDK does not know yet, pass it in the `body` option.',
    );
    const phone = await refusal(() =>
      client.leads.submit(mock.tokens.lead, { phone: '4155550100' } as never),
    );
    expect(phone.message).toContain('`phone` (did you mean `phone_number`?)');
    const option = await refusal(() =>
      client.audiences.addMember(mock.tokens.audience, { email: 'ada@example.com', maxRetries: 0 } as never),
    );
    expect(option.message).toContain('`maxRetries` (an option: pass it in the third argument)');
    expect(mock.journal()).toEqual([]);
  });

  it('the body option sends a field the SDK does not know yet; a field it knows belongs in the body', async () => {
    await expect(
      client.leads.submit(
        mock.tokens.lead,
        { phone_number: '4155550100' },
        { body: { referrer: 'partner-42' } },
      ),
    ).resolves.toEqual({ received: true });
    expect(mock.journal()[0]?.body).toEqual({ phone_number: '4155550100', referrer: 'partner-42' });
    const known = await refusal(() =>
      client.leads.submit(mock.tokens.lead, { phone_number: '4155550100' }, { body: { zip: '94103' } }),
    );
    expect(known.message).toBe(
      'The `body` option of client.leads.submit() is for names the SDK does not know yet, and it knows `zip`: pass each with the other body fields, where it is checked.',
    );
    expect(mock.journal()).toHaveLength(1);
  });

  it('the query option puts a parameter the SDK does not know on the wire, as it is', async () => {
    // The mock server knows no such parameter either, and answers 400: what matters is that it was sent.
    const list = await client.calls
      .list({ source: 'voice_agent' }, { query: { include_archived: true } })
      .then(undefined, (caught: unknown) => caught);
    expect(list).toBeInstanceOf(BadRequestError);
    expect((list as CompanyDataError).detail).toBe('Unknown query parameter "include_archived".');
    expect(mock.journal()[0]?.query).toEqual({ source: 'voice_agent', include_archived: 'true', page: '1' });
    const retrieve = await client.users
      .retrieve(UNKNOWN_ID, { query: { expand: 'teams' } })
      .then(undefined, (caught: unknown) => caught);
    expect(retrieve).toBeInstanceOf(BadRequestError);
    expect(mock.journal()[1]?.query).toEqual({ expand: 'teams' });
    const known = await refusal(() => client.calls.list({}, { query: { page_size: 100 } }));
    expect(known.message).toContain('it knows `page_size`: pass each with the other parameters');
    expect(mock.journal()).toHaveLength(2);
  });

  it('the query option encodes what needs encoding, and sends plain names and values as they are', async () => {
    // Most queries need no encoding and are joined by hand; one character that does sends it all encoded.
    const extras = { 'note[]': 'a b&c=d/é+', plain: 'x-1.5_*' };
    await client.calls.list({ page_size: 5 }, { query: extras }).then(undefined, () => undefined);
    expect(mock.journal()[0]?.query).toEqual({ page_size: '5', ...extras, page: '1' });
    await client.users.retrieve(UNKNOWN_ID, { query: extras }).then(undefined, () => undefined);
    expect(mock.journal()[1]?.query).toEqual(extras);
  });
});
