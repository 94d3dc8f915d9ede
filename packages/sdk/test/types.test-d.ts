import { User as UserSchema } from '@company-data/contract';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
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
  ConfigurationError,
  type ConnectionError,
  type DerivedClientOptions,
  extraField,
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
  type SDK_METHODS,
  type SyncBatch,
  type SyncChange,
  type SyncRun,
  type Team,
  type TimeoutError,
  type TranscriptWord,
  type User,
  type UserListQuery,
  ValidationError,
  type ValidationIssue,
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

  it('sync methods give runs of the contract item types, their changes told apart by type', async () => {
    expectTypeOf(client.users.sync()).toEqualTypeOf<SyncRun<User>>();
    expectTypeOf(client.teams.sync()).toEqualTypeOf<SyncRun<Team>>();
    expectTypeOf(client.recordings.sync()).toEqualTypeOf<SyncRun<Recording>>();
    const run = client.calls.sync({ checkpoint: '', lookBack: 0, params: { source: 'voice_agent' } });
    expectTypeOf(run).toExtend<AsyncIterable<SyncChange<Call>>>();
    expectTypeOf(run.pages()).toExtend<AsyncIterable<SyncBatch<Call>>>();
    expectTypeOf(run.checkpoint).toEqualTypeOf<string>();
    for await (const change of run) {
      if (change.type === 'removed') expectTypeOf(change.id).toEqualTypeOf<string>();
      else expectTypeOf(change.record).toEqualTypeOf<Call>();
    }
    // @ts-expect-error: a filter of another list
    client.calls.sync({ params: { is_active: true } });
    // @ts-expect-error: sync reads in its own order
    client.calls.sync({}, { ordered: false });
    // @ts-expect-error: ...from page 1
    client.calls.sync({ params: { page: 2 } });
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

  it('response types list exactly the spec fields: a misspelt or absent field does not compile', async () => {
    const user = await client.users.retrieve('id');
    // @ts-expect-error: no such field (email)
    user.emial;
    const call = await client.calls.retrieve('id');
    // @ts-expect-error: no such field (summary)
    call.sumary;
    const { transcript } = await client.calls.transcript('id');
    // @ts-expect-error: a call transcript has no word timings
    transcript[0]?.words;
    const recording = await client.recordings.transcript('id');
    expectTypeOf(recording.transcript[0]?.words).toEqualTypeOf<TranscriptWord[] | undefined>();
    expectTypeOf<keyof User>().toEqualTypeOf<
      'id' | 'email' | 'first_name' | 'last_name' | 'full_name' | 'is_active' | 'permissions' | 'created_at'
    >();
    expectTypeOf<keyof Call['user']>().toEqualTypeOf<'id' | 'full_name'>();
    expectTypeOf<keyof Page<Call>['pagination']>().toEqualTypeOf<
      'count' | 'page' | 'page_size' | 'total_pages'
    >();
  });

  it('the types come from the contract schemas: a field added to a schema appears in the type', () => {
    expectTypeOf<User>().toEqualTypeOf<z.output<typeof UserSchema>>();
    const Grown = UserSchema.extend({ timezone: z.string() });
    type Grown = z.output<typeof Grown>;
    expectTypeOf<keyof Grown>().toEqualTypeOf<keyof User | 'timezone'>();
    expectTypeOf<Grown['timezone']>().toEqualTypeOf<string>();
    expectTypeOf<Omit<Grown, 'timezone'>>().toEqualTypeOf<Omit<User, never>>();
    const grown = Grown.parse({});
    // @ts-expect-error: still closed: no index signature came with the new field
    grown.timezon;
  });

  it('extraField reads an undeclared field as unknown, and refuses a declared one', async () => {
    const user = await client.users.retrieve('id');
    expectTypeOf(extraField(user, 'timezone')).toEqualTypeOf<unknown>();
    // @ts-expect-error: email is declared: read user.email
    extraField(user, 'email');
  });

  it('webhook bodies and options are closed too, with explicit ways to send what the SDK does not know', () => {
    // @ts-expect-error: no such field (customer_name)
    client.leads.submit('t', { phone_number: '1', customer_nme: 'Ada' });
    client.leads.submit('t', { phone_number: '1' }, { body: { referrer: 'partner-42' } });
    // @ts-expect-error: `body` is for webhooks
    client.users.retrieve('id', { body: {} });
    client.calls.list({}, { query: { include_archived: true, since: 3 } });
    // @ts-expect-error: query values are strings, numbers or booleans
    client.calls.list({}, { query: { tags: ['a'] } });
    // @ts-expect-error: no such option (timeout)
    client.users.retrieve('id', { timout: 5 });
    client.calls.list({}, { hedge: { afterMs: 500 } });
    client.calls.transcript('id', { hedge: false });
    // @ts-expect-error: a webhook is a POST, never hedged
    client.leads.submit('t', { phone_number: '1' }, { hedge: true });
    // @ts-expect-error: no such option (limit)
    client.users.list().toArray({ limt: 5 });
  });

  it('withOptions derives a client, changing only what it does not share; asResponse gives a fetch Response', () => {
    expectTypeOf(client.withOptions({ timeout: 5_000, maxRetries: 0 })).toEqualTypeOf<CompanyData>();
    expectTypeOf<keyof DerivedClientOptions>().toEqualTypeOf<
      | 'timeout'
      | 'maxRetries'
      | 'maxRetryWait'
      | 'defaultHeaders'
      | 'logger'
      | 'logLevel'
      | 'validate'
      | 'hedge'
      | 'onRateLimit'
      | 'onRetry'
      | 'random'
    >();
    // @ts-expect-error: the key is shared with the parent client
    client.withOptions({ apiKey: 'svc_live_other' });
    expectTypeOf(client.users.retrieve('id').asResponse()).toEqualTypeOf<Promise<Response>>();
    expectTypeOf(client.calls.list().asResponse()).toEqualTypeOf<Promise<Response>>();
  });

  it('a configuration error is a validation error: nothing was sent, a retry cannot help', () => {
    expectTypeOf<ConfigurationError>().toExtend<ValidationError>();
    const error: unknown = new ConfigurationError('invalid_option', 'x');
    if (error instanceof ValidationError) expectTypeOf(error.issues).toExtend<readonly unknown[]>();
  });

  it('every row of SDK_METHODS names a method of the client', () => {
    type Row = (typeof SDK_METHODS)[keyof typeof SDK_METHODS];
    type IsMethod<R> = R extends readonly [infer Resource extends keyof CompanyData, infer Method]
      ? Method extends keyof CompanyData[Resource]
        ? CompanyData[Resource][Method] extends (...args: never[]) => unknown
          ? true
          : false
        : false
      : false;
    expectTypeOf<IsMethod<Row>>().toEqualTypeOf<true>();
  });

  it("errors carry the body as unknown, and issues of the SDK's own type, not zod's", () => {
    expectTypeOf<CompanyDataError['body']>().toEqualTypeOf<unknown>();
    expectTypeOf<ValidationError['issues']>().toEqualTypeOf<readonly ValidationIssue[]>();
    expectTypeOf<InvalidResponseError['issues']>().toEqualTypeOf<readonly ValidationIssue[]>();
    expectTypeOf<ValidationIssue>().toEqualTypeOf<{
      readonly path: readonly (string | number)[];
      readonly message: string;
      readonly code: string;
    }>();
  });
});
