/**
 * A realistic, deterministic page of 25 calls, serialised once. Figure 1 serves these exact bytes from a
 * bare server so every client variant parses the same payload; the contract's schema checks it is valid.
 */
import { type Call, CallList, type ListResponse } from '@company-data/contract';
import { Prng } from '@company-data/mock-server';

const FIRST = ['Maria', 'James', 'Aisha', 'Chen', 'Lucas', 'Priya', 'Olivia', 'Mateo', 'Sofia', 'Noah'];
const LAST = ['Garcia', 'Smith', 'Okafor', 'Wang', 'Silva', 'Patel', 'Brown', 'Rossi', 'Müller', 'Kim'];
const SENTENCES = [
  'Customer called about a leaking water heater in the garage and asked for a same-week visit.',
  'The agent confirmed the service address and explained the diagnostic fee before booking.',
  'Caller compared our quote with a competitor and asked whether financing is available.',
  'A technician slot on Thursday morning was offered and accepted by the customer.',
  'The customer mentioned a previous repair two years ago and wanted the same technician.',
  'Agent captured the email address for the written estimate and the appointment reminder.',
  'Caller asked to reschedule because of a work conflict; a new time was agreed.',
  'No booking was made; the customer will call back after talking to their landlord.',
];

function uuid(rand: () => number): string {
  const hex = (n: number) => Array.from({ length: n }, () => Math.floor(rand() * 16).toString(16)).join('');
  const variant = '89ab'[Math.floor(rand() * 4)] ?? '8';
  return `${hex(8)}-${hex(4)}-4${hex(3)}-${variant}${hex(3)}-${hex(12)}`;
}

function pick<T>(rand: () => number, list: readonly T[]): T {
  return list[Math.floor(rand() * list.length)] as T;
}

/** Builds `count` realistic calls, newest first, from a seed. */
export function makeCalls(count: number, seed = 7): Call[] {
  const random = new Prng(seed);
  const rand = () => random.next();
  const start = Date.parse('2026-05-31T18:00:00Z');
  const users = Array.from({ length: 6 }, () => ({
    id: uuid(rand),
    full_name: `${pick(rand, FIRST)} ${pick(rand, LAST)}`,
  }));
  return Array.from({ length: count }, (_, i) => {
    const begin = start - i * 37 * 60_000 - Math.floor(rand() * 600_000);
    const seconds = 60 + Math.floor(rand() * 1_500);
    const excused = rand() < 0.1;
    const summary = Array.from({ length: 3 + Math.floor(rand() * 2) }, () => pick(rand, SENTENCES)).join(' ');
    return {
      id: uuid(rand),
      start_time: new Date(begin).toISOString(),
      end_time: new Date(begin + seconds * 1000).toISOString(),
      audio_duration_seconds: seconds,
      direction: 'inbound',
      source: rand() < 0.7 ? 'integration' : 'voice_agent',
      sentiment: pick(rand, ['positive', 'neutral', 'negative']),
      score: Math.round(rand() * 1000) / 100,
      summary,
      is_qualified: rand() < 0.6,
      is_booked: rand() < 0.4,
      is_excused: excused,
      excused_at: excused ? new Date(begin + seconds * 1000 + 3_600_000).toISOString() : null,
      excuse_reason: excused ? 'Caller was a vendor, not a customer.' : null,
      is_cancellation: rand() < 0.05,
      has_cancellation: rand() < 0.08,
      user: pick(rand, users),
      created_at: new Date(begin + seconds * 1000 + 5_000).toISOString(),
    };
  });
}

/** The serialised first page of a 25-per-page call list, checked against the contract's `CallList` schema. */
export function callsPageBytes(pageSize = 25, total = 4_812): Buffer {
  const page: ListResponse<Call> = {
    data: makeCalls(pageSize),
    pagination: { count: total, page: 1, page_size: pageSize, total_pages: Math.ceil(total / pageSize) },
  };
  CallList.parse(page);
  return Buffer.from(JSON.stringify(page));
}
