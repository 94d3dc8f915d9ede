import { describe, expectTypeOf, it } from 'vitest';
import {
  type APIPromise,
  type AudienceMember,
  AuthenticationError,
  type AuthenticationFailure,
  type Call,
  type CallListQuery,
  type CallTranscript,
  CompanyData,
  type CompanyDataError,
  type ConnectionError,
  type InvalidResponseError,
  type LeadReceived,
  type Page,
  type PagePromise,
  RateLimitError,
  type Recording,
  type RecordingDetail,
  type RecordingTranscript,
  type ResponseHeaders,
  type ResponseInfo,
  type Team,
  type TimeoutError,
  type User,
  type UserListQuery,
  type ValidationError,
} from '../src/index.js';

const client = new CompanyData();

describe('public types', () => {
  it('list methods give pages of the contract item types, iterable item by item', async () => {
    expectTypeOf(client.users.list()).toEqualTypeOf<PagePromise<User>>();
    expectTypeOf(client.teams.list()).toEqualTypeOf<PagePromise<Team>>();
    expectTypeOf(client.recordings.list()).toEqualTypeOf<PagePromise<Recording>>();
    expectTypeOf(client.calls.list()).toEqualTypeOf<PagePromise<Call>>();
    expectTypeOf(await client.calls.list()).toEqualTypeOf<Page<Call>>();
    expectTypeOf((await client.calls.list()).data).toEqualTypeOf<Call[]>();
    expectTypeOf(client.calls.list()).toExtend<AsyncIterable<Call>>();
    expectTypeOf(client.calls.list().pages()).toExtend<AsyncIterable<Page<Call>>>();
    expectTypeOf(client.users.list().toArray({ limit: 5 })).toEqualTypeOf<Promise<User[]>>();
    expectTypeOf(await client.calls.list().withResponse()).toEqualTypeOf<{
      data: Page<Call>;
      response: ResponseInfo;
    }>();
  });

  it('retrieve and transcript methods give the contract record types', async () => {
    expectTypeOf(client.users.retrieve('id')).toEqualTypeOf<APIPromise<User>>();
    expectTypeOf(await client.recordings.retrieve('id')).toEqualTypeOf<RecordingDetail>();
    expectTypeOf(await client.recordings.transcript('id')).toEqualTypeOf<RecordingTranscript>();
    expectTypeOf(await client.calls.transcript('id')).toEqualTypeOf<CallTranscript>();
    expectTypeOf(await client.audiences.addMember('t', { phone: '1' })).toEqualTypeOf<AudienceMember>();
    expectTypeOf(await client.leads.submit('t', { phone_number: '1' })).toEqualTypeOf<LeadReceived>();
    expectTypeOf((await client.leads.submit('t', { phone_number: '1' })).received).toEqualTypeOf<true>();
    expectTypeOf(
      (await client.users.retrieve('id').withResponse()).response.headers,
    ).toEqualTypeOf<ResponseHeaders>();
  });

  it('open enums keep autocompletion and accept new values; closed ones do not', () => {
    expectTypeOf<Call['direction']>().toEqualTypeOf<'inbound' | (string & {})>();
    expectTypeOf<Call['sentiment']>().toEqualTypeOf<'positive' | (string & {})>();
    expectTypeOf<Call['source']>().toEqualTypeOf<'integration' | 'voice_agent'>();
    expectTypeOf<User['permissions'][number]>().toEqualTypeOf<
      'call_center_ai_coach' | 'call_center_ai_record' | 'ridealong_record' | (string & {})
    >();
    expectTypeOf<AudienceMember['status']>().toEqualTypeOf<'active' | 'opted_out' | 'do_not_contact'>();
  });

  it('params are typed: optional fields, closed values, no unknown keys', () => {
    expectTypeOf(client.users.list).parameter(0).toEqualTypeOf<UserListQuery | undefined>();
    expectTypeOf(client.calls.list).parameter(0).toEqualTypeOf<CallListQuery | undefined>();
    expectTypeOf<UserListQuery['is_active']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<CallListQuery['source']>().toEqualTypeOf<'integration' | 'voice_agent' | undefined>();
    expectTypeOf<CallListQuery['ordering']>().toEqualTypeOf<'created_at' | '-created_at' | undefined>();
    // @ts-expect-error: not a call source
    client.calls.list({ source: 'fax' });
    // @ts-expect-error: no such parameter
    client.teams.list({ is_active: true });
    // @ts-expect-error: phone_number is required
    client.leads.submit('t', { customer_name: 'Ada' });
    client.calls.list(
      { page_size: 100 },
      { concurrency: 4, signal: AbortSignal.timeout(1000), maxRetries: 0 },
    );
  });

  it('error classes carry their fields and sit under CompanyDataError', () => {
    expectTypeOf<RateLimitError>().toExtend<CompanyDataError>();
    expectTypeOf<RateLimitError['retryAfter']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<AuthenticationError['reason']>().toEqualTypeOf<AuthenticationFailure>();
    expectTypeOf<AuthenticationFailure>().toEqualTypeOf<'invalid_key' | 'expired_key'>();
    expectTypeOf<TimeoutError>().toExtend<ConnectionError>();
    expectTypeOf<CompanyDataError['status']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<CompanyDataError['code']>().toEqualTypeOf<string>();
    expectTypeOf<CompanyDataError['headers']>().toEqualTypeOf<ResponseHeaders>();
    expectTypeOf<InvalidResponseError['issues']>().toExtend<readonly unknown[]>();
    expectTypeOf<ValidationError['issues']>().toExtend<readonly unknown[]>();
    const error: unknown = new Error();
    if (error instanceof RateLimitError) expectTypeOf(error.retryAfter).toEqualTypeOf<number | undefined>();
    if (error instanceof AuthenticationError)
      expectTypeOf(error.reason).toEqualTypeOf<AuthenticationFailure>();
  });

  it('hooks may return nothing or false', () => {
    new CompanyData({
      onRateLimit: (event) => {
        expectTypeOf(event.retryAfter).toEqualTypeOf<number | undefined>();
        expectTypeOf(event.error).toEqualTypeOf<RateLimitError>();
      },
      onRetry: async (event) => event.attempt < 3,
      sleep: async (ms, signal) => {
        expectTypeOf(ms).toEqualTypeOf<number>();
        expectTypeOf(signal).toEqualTypeOf<AbortSignal | undefined>();
      },
    });
  });
});
