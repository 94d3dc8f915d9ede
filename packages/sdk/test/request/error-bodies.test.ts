import { ERROR_DETAILS, throttleDetail } from '@company-data/contract';
import type { MockServer } from '@company-data/mock-server';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BadRequestError,
  ConnectionError,
  InvalidResponseError,
  NotFoundError,
  RateLimitError,
  ServerError,
  ValidationError,
} from '../../src/index.js';
import { caught, clientFor, type Target, targets } from '../support/harness.js';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe.each(targets)('the response body on errors ($name)', (target: Target) => {
  let mock: MockServer | undefined;
  afterEach(async () => {
    await mock?.close();
    mock = undefined;
  });

  it('404: the parsed JSON the server sent', async () => {
    mock = await target.start();
    const error = await caught(clientFor(target, mock).client.calls.retrieve(UNKNOWN_ID));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.body).toEqual({ error: { detail: ERROR_DETAILS.notFound } });
  });

  it('400: the parsed JSON of a webhook the server refused', async () => {
    mock = await target.start();
    const { client } = clientFor(target, mock);
    const error = await caught(
      client.audiences.addMember(mock.tokens.audience, { phone: '12', email: 'x@example.com' }),
    );
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.body).toEqual({ error: { detail: error.detail } });
    expect(error.detail).toMatch(/phone/);
  });

  it('429: the parsed JSON of a real throttle, with the wait the detail names', async () => {
    mock = await target.start({ quota: { requests: 1, perSeconds: 60 } });
    const { client } = clientFor(target, mock, { maxRetries: 0 });
    await client.teams.list();
    const error = await caught(client.teams.list());
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.body).toEqual({ error: { detail: error.detail } });
    expect(error.detail).toBe(throttleDetail((error as RateLimitError).retryAfter ?? Number.NaN));
  });

  it("a proxy's HTML page: its text, as sent; a 5xx retried keeps the last attempt's body", async () => {
    mock = await target.start();
    mock.injectFault({ path: '/v1/teams/', htmlPage: true, times: 2 });
    const error = await caught(clientFor(target, mock, { maxRetries: 1 }).client.teams.list());
    expect(error).toBeInstanceOf(ServerError);
    expect(typeof error.body).toBe('string');
    expect(error.body as string).toMatch(/^<(!doctype )?html/i);
  });

  it('a success body that fails the schema: InvalidResponseError keeps it, with issues of its own type', async () => {
    mock = await target.start();
    const broken = {
      data: [{ id: 'not-a-uuid' }],
      pagination: { count: 1, page: 1, page_size: 25, total_pages: 1 },
    };
    mock.injectFault({ path: '/v1/teams/', status: 200, body: broken });
    const error = await caught(clientFor(target, mock).client.teams.list());
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error.body).toEqual(broken);
    const [issue] = (error as InvalidResponseError).issues;
    expect(issue).toEqual({ path: ['data', 0, 'id'], message: expect.any(String), code: expect.any(String) });
  });

  it('no answer, or nothing sent: undefined', async () => {
    mock = await target.start();
    mock.injectFault({ path: '/v1/teams/', drop: true, times: 1 });
    const dropped = await caught(clientFor(target, mock, { maxRetries: 0 }).client.teams.list());
    expect(dropped).toBeInstanceOf(ConnectionError);
    expect(dropped.body).toBeUndefined();
    const refused = await caught(clientFor(target, mock).client.users.retrieve('42'));
    expect(refused).toBeInstanceOf(ValidationError);
    expect(refused.body).toBeUndefined();
  });
});
