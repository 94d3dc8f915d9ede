import type { Fixture } from '../../src/index.js';

export const ADA = 'a0000000-0000-4000-8000-000000000001';
export const BOB = 'a0000000-0000-4000-8000-000000000002';
export const TEAM = 'b0000000-0000-4000-8000-000000000001';
export const RECORDING = 'c0000000-0000-4000-8000-000000000001';
export const CALL_1 = 'd0000000-0000-4000-8000-000000000001';
export const CALL_2 = 'd0000000-0000-4000-8000-000000000002';
export const AUDIENCE_TOKEN = 'e0000000-0000-4000-8000-000000000001';
export const LEAD_TOKEN = 'e0000000-0000-4000-8000-000000000002';
export const DELETED_LEAD_TOKEN = 'e0000000-0000-4000-8000-000000000003';
export const OTHER_AUDIENCE_TOKEN = 'e0000000-0000-4000-8000-000000000004';
export const KEY = 'svc_live_fixture_key';
export const ORDERS_ONLY_KEY = 'svc_live_fixture_users_only';

const ref = { id: ADA, full_name: 'Ada Lovelace' };
const call = (id: string, created_at: string, source: 'integration' | 'voice_agent') => ({
  id,
  start_time: '2026-01-01T09:00:00Z',
  end_time: '2026-01-01T09:05:00Z',
  audio_duration_seconds: 300,
  direction: 'inbound',
  source,
  sentiment: 'positive',
  score: 80.5,
  summary: 'Booked a visit.',
  is_qualified: true,
  is_booked: true,
  is_excused: false,
  excused_at: null,
  excuse_reason: null,
  is_cancellation: false,
  has_cancellation: false,
  user: ref,
  created_at,
});

// `nickname` is no field of the API: a record may carry fields the contract does not declare (yet), which the
// mock serves as they are. Spread into the fixture, so TypeScript's closed types let it through.
const bob = {
  id: BOB,
  email: 'bob@fixture.example',
  first_name: 'Bob',
  last_name: 'Byte',
  full_name: 'Bob Byte',
  is_active: false,
  permissions: [],
  created_at: '2025-01-01T00:00:00Z',
  nickname: 'bb',
};

/** A small fixture covering every part of the format. */
export function sampleFixture(): Fixture {
  return {
    companies: [
      {
        name: 'Fixture Co',
        keys: [
          { value: KEY, name: 'CI key' },
          { value: ORDERS_ONLY_KEY, permissions: ['users'] },
          { value: 'svc_live_fixture_old', expires_at: '2026-01-01T00:00:00Z' },
          { value: 'svc_live_fixture_revoked', revoked: true },
        ],
        users: [
          {
            id: ADA,
            email: 'ada@fixture.example',
            first_name: 'Ada',
            last_name: 'Lovelace',
            full_name: 'Ada Lovelace',
            is_active: true,
            permissions: ['ridealong_record'],
            created_at: '2025-01-02T00:00:00Z',
          },
          { ...bob },
        ],
        teams: [
          { id: TEAM, name: 'Core', description: 'The core team.', created_at: '2025-01-01T00:00:00Z' },
        ],
        recordings: [
          {
            id: RECORDING,
            name: 'Visit',
            start_time: '2026-01-01T09:00:00Z',
            end_time: '2026-01-01T10:00:00Z',
            audio_duration_seconds: 3600,
            score: 7.5,
            user: ref,
            created_at: '2026-01-01T10:00:00Z',
            custom_fields: [
              {
                name: 'Outcome',
                slug: 'outcome',
                value_type: 'single_select',
                value: 'Won',
                source: 'manual',
              },
            ],
            transcript: [
              {
                speaker: 'A',
                text: 'Hello there',
                start: 0,
                end: 900,
                words: [
                  { text: 'Hello', start: 0, end: 400, speaker: 'A' },
                  { text: 'there', start: 450, end: 900, speaker: 'A' },
                ],
              },
            ],
          },
        ],
        calls: [
          {
            ...call(CALL_2, '2026-01-02T00:00:00Z', 'voice_agent'),
            transcript: [{ speaker: 'agent', text: 'Hi', start: 0, end: 500 }],
          },
          call(CALL_1, '2026-01-01T00:00:00Z', 'integration'),
        ],
        audiences: [
          {
            name: 'Existing',
            token: AUDIENCE_TOKEN,
            members: [
              {
                first_name: 'Known',
                phone: '(415) 555-0142',
                email: 'known@example.com',
                custom_fields: { tier: 'gold' },
              },
              { email: 'gone@example.com', status: 'opted_out' },
            ],
          },
        ],
        lead_sources: [
          { name: 'Form', token: LEAD_TOKEN },
          { name: 'Old form', token: DELETED_LEAD_TOKEN, deleted: true },
        ],
      },
      {
        name: 'Second Co',
        keys: [{ value: 'svc_live_second' }],
        users: [],
        audiences: [{ name: 'Theirs', token: OTHER_AUDIENCE_TOKEN }],
      },
    ],
  };
}
