import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  ApiErrorBody,
  AudienceMember,
  AudienceMemberInput,
  Call,
  CallListQuery,
  CallTranscript,
  FlatErrorBody,
  LeadInput,
  LeadReceived,
  ListQuery,
  Pagination,
  Recording,
  RecordingDetail,
  RecordingTranscript,
  Team,
  User,
  UserList,
  UserListQuery,
} from '../src/index.js';
import * as sample from './samples.js';

const cases: Array<[string, z.ZodType, Record<string, unknown>]> = [
  ['User', User, sample.user],
  ['Team', Team, sample.team],
  ['Recording', Recording, sample.recording],
  ['RecordingDetail', RecordingDetail, sample.recordingDetail],
  ['Call', Call, sample.call],
  ['RecordingTranscript', RecordingTranscript, sample.recordingTranscript],
  ['CallTranscript', CallTranscript, sample.callTranscript],
  ['AudienceMember', AudienceMember, sample.audienceMember],
  ['Pagination', Pagination, { count: 26, page: 2, page_size: 25, total_pages: 2 }],
  ['ApiErrorBody', ApiErrorBody, { error: { detail: 'Not found.' } }],
  ['FlatErrorBody', FlatErrorBody, { error: 'Not found' }],
  ['LeadReceived', LeadReceived, { received: true }],
];

describe.each(cases)('%s', (_name, schema, valid) => {
  it('parses a valid example', () => {
    expect(schema.parse(valid)).toEqual(valid);
  });

  it('keeps unknown extra fields', () => {
    expect(schema.parse({ ...valid, added_later: 1 })).toMatchObject({ added_later: 1 });
  });

  it.each(Object.keys(valid))('fails naming the field when %s is missing', (field) => {
    const { [field]: _removed, ...rest } = valid;
    const result = schema.safeParse(rest);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path[0])).toContain(field);
  });
});

describe('open enumerations accept values the spec has not shown', () => {
  it.each([
    ['direction', { ...sample.call, direction: 'outbound' }, Call],
    ['sentiment', { ...sample.call, sentiment: 'frustrated' }, Call],
    ['permissions', { ...sample.user, permissions: ['billing_admin'] }, User],
    [
      'value_type',
      {
        ...sample.recordingDetail,
        custom_fields: [{ ...sample.recordingDetail.custom_fields[0], value_type: 'date' }],
      },
      RecordingDetail,
    ],
    [
      'custom field source',
      {
        ...sample.recordingDetail,
        custom_fields: [{ ...sample.recordingDetail.custom_fields[0], source: 'import' }],
      },
      RecordingDetail,
    ],
    [
      'speaker',
      {
        ...sample.callTranscript,
        transcript: [{ ...sample.callTranscript.transcript[0], speaker: 'supervisor' }],
      },
      CallTranscript,
    ],
  ] as const)('%s', (_field, value, schema: z.ZodType) => {
    expect(schema.safeParse(value).success).toBe(true);
  });
});

describe('closed enumerations reject unknown values', () => {
  it.each([
    ['call source', Call, { ...sample.call, source: 'manual' }],
    ['audience member status', AudienceMember, { ...sample.audienceMember, status: 'paused' }],
    ['ordering', ListQuery, { ordering: 'name' }],
    ['source filter', CallListQuery, { source: 'email' }],
  ] as const)('%s', (_name, schema: z.ZodType, value) => {
    expect(schema.safeParse(value).success).toBe(false);
  });
});

describe('field-level rules', () => {
  it('excused_at and excuse_reason may be null but not absent', () => {
    expect(
      Call.safeParse({ ...sample.call, excused_at: '2026-03-02T00:00:00Z', excuse_reason: 'Spam' }).success,
    ).toBe(true);
    expect(Call.safeParse({ ...sample.call, excused_at: 'yesterday' }).success).toBe(false);
  });

  it('audio_duration_seconds must be an integer', () => {
    expect(Call.safeParse({ ...sample.call, audio_duration_seconds: 1.5 }).success).toBe(false);
  });

  it('a custom field value is a string or a number', () => {
    const bad = {
      ...sample.recordingDetail,
      custom_fields: [{ ...sample.recordingDetail.custom_fields[0], value: true }],
    };
    expect(RecordingDetail.safeParse(bad).success).toBe(false);
  });

  it('a list envelope requires both data and pagination', () => {
    expect(UserList.safeParse({ data: [sample.user] }).success).toBe(false);
    expect(
      UserList.safeParse({ data: [], pagination: { count: 0, page: 1, page_size: 25, total_pages: 0 } })
        .success,
    ).toBe(true);
  });

  it('an audience member phone must be E.164', () => {
    expect(AudienceMember.safeParse({ ...sample.audienceMember, phone: '415-555-0123' }).success).toBe(false);
  });
});

describe('list query parameters', () => {
  it('applies the spec defaults', () => {
    expect(ListQuery.parse({})).toEqual({ ordering: '-created_at', page: 1, page_size: 25 });
  });

  it('accepts every page_size from 1 to 100 and rejects the rest', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1000, max: 1000 }), (size) => {
        expect(ListQuery.safeParse({ page_size: size }).success).toBe(size >= 1 && size <= 100);
      }),
    );
  });

  it('rejects a page below 1 and fractional pages', () => {
    expect(ListQuery.safeParse({ page: 0 }).success).toBe(false);
    expect(ListQuery.safeParse({ page: 1.5 }).success).toBe(false);
  });

  it('has is_active on users and source on calls', () => {
    expect(UserListQuery.parse({ is_active: false }).is_active).toBe(false);
    expect(CallListQuery.parse({ source: 'voice_agent' }).source).toBe('voice_agent');
  });
});

describe('webhook bodies', () => {
  it('an audience member needs a phone or an email', () => {
    expect(AudienceMemberInput.safeParse({ phone: '(415) 555-0123' }).success).toBe(true);
    expect(AudienceMemberInput.safeParse({ email: 'a@example.com' }).success).toBe(true);
    const result = AudienceMemberInput.safeParse({ first_name: 'Ada' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('At least one of phone or email is required');
  });

  it('an audience member email must be an email', () => {
    expect(AudienceMemberInput.safeParse({ email: 'not-an-email' }).success).toBe(false);
  });

  it('a lead needs a phone_number, with the spec wording', () => {
    for (const body of [{}, { phone_number: '' }, { phone_number: '   ' }]) {
      const result = LeadInput.safeParse(body);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe('phone_number is required');
    }
    expect(LeadInput.safeParse({ phone_number: '415-555-0123', utm_source: 'ads' }).success).toBe(true);
  });
});
