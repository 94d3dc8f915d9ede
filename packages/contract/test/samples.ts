// Valid sample bodies, one per resource, shaped as the spec shows them.
export const ids = {
  user: '5b3c1f0e-8d2a-4f6b-9c1d-2e3f4a5b6c7d',
  recording: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
  call: 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b',
};

export const user = {
  id: ids.user,
  email: 'ada@example.com',
  first_name: 'Ada',
  last_name: 'Lovelace',
  full_name: 'Ada Lovelace',
  is_active: true,
  permissions: ['call_center_ai_coach', 'ridealong_record'],
  created_at: '2026-01-05T10:00:00Z',
};

export const team = {
  id: '7c6b5a49-3827-4165-9f4e-3d2c1b0a9f8e',
  name: 'North',
  description: 'Northern field team',
  created_at: '2026-01-06T10:00:00Z',
};

export const recording = {
  id: ids.recording,
  name: 'Visit at 12 Elm St',
  start_time: '2026-02-01T15:00:00Z',
  end_time: '2026-02-01T15:30:00Z',
  audio_duration_seconds: 1800,
  score: 0.82,
  user: { id: ids.user, full_name: 'Ada Lovelace' },
  created_at: '2026-02-01T15:31:00Z',
};

export const recordingDetail = {
  ...recording,
  custom_fields: [
    { name: 'Outcome', slug: 'outcome', value_type: 'single_select', value: 'Won', source: 'ai' },
    { name: 'Deal size', slug: 'deal_size', value_type: 'number', value: 1250, source: 'manual' },
  ],
};

export const call = {
  id: ids.call,
  start_time: '2026-03-01T09:00:00Z',
  end_time: '2026-03-01T09:05:00Z',
  audio_duration_seconds: 300,
  direction: 'inbound',
  source: 'integration',
  sentiment: 'positive',
  score: 7.5,
  summary: 'Customer booked a visit.',
  is_qualified: true,
  is_booked: true,
  is_excused: false,
  excused_at: null,
  excuse_reason: null,
  is_cancellation: false,
  has_cancellation: false,
  user: { id: ids.user, full_name: 'Ada Lovelace' },
  created_at: '2026-03-01T09:06:00Z',
};

export const recordingTranscript = {
  id: ids.recording,
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
};

export const callTranscript = {
  id: ids.call,
  transcript: [{ speaker: 'agent', text: 'Thanks for calling.', start: 0, end: 1200 }],
};

export const audienceMember = {
  id: '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a',
  created_at: '2026-04-01T12:00:00Z',
  first_name: 'Grace',
  last_name: 'Hopper',
  phone: '+14155550123',
  email: 'grace@example.com',
  custom_fields: { plan: 'gold' },
  status: 'active',
};
