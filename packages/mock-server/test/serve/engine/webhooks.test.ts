import {
  ApiErrorBody,
  AudienceMember,
  ERROR_DETAILS,
  FlatErrorBody,
  LEAD_DEDUP_WINDOW_MS,
} from '@company-data/contract';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_BODY_BYTES } from '../../../src/index.js';
import { useEngine } from '../../support/engine.js';

// The webhooks' rules (members, leads and their 15-minute deduplication window), run once against
// server.handle() with a frozen clock. Body reading at the limit, per way in, is in the conformance suite.

const MINUTE = 60_000;

const { h, post, audiencePath, leadPath } = useEngine();

describe('engine: webhooks', () => {
  describe('audience webhook', () => {
    it('creates a member (201), then returns it (200) for the same phone in any format', async () => {
      const created = await post(audiencePath(), {
        first_name: 'Ada',
        last_name: 'Lovelace',
        phone: '(415) 555-0123',
        custom_fields: { plan: 'gold' },
      });
      expect(created.status).toBe(201);
      const member = AudienceMember.parse(created.json);
      expect(member).toMatchObject({
        phone: '+14155550123',
        email: '',
        status: 'active',
        custom_fields: { plan: 'gold' },
      });
      for (const phone of ['+1 415 555 0123', '415.555.0123', '1-415-555-0123']) {
        const again = await post(audiencePath(), { phone, first_name: 'Someone else' });
        expect(again.status).toBe(200);
        expect(again.json).toEqual(created.json);
      }
      expect(h.server.members(h.server.tokens.audience)).toHaveLength(1);
    });

    it('matches e-mail in any letter case', async () => {
      const created = await post(audiencePath(), { email: 'Ada@Example.com' });
      expect(created.status).toBe(201);
      expect(AudienceMember.parse(created.json).phone).toBe('');
      const again = await post(audiencePath(), { email: 'ada@EXAMPLE.COM', phone: '+44 20 7946 0958' });
      expect(again.status).toBe(200);
      expect(again.json.id).toBe(created.json.id);
    });

    it('creates one member from 50 concurrent identical requests', async () => {
      const body = { first_name: 'Grace', phone: '212-555-2368', email: 'grace@example.com' };
      const responses = await Promise.all(Array.from({ length: 50 }, () => post(audiencePath(), body)));
      expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
      expect(responses.filter((r) => r.status === 200)).toHaveLength(49);
      expect(new Set(responses.map((r) => r.json.id)).size).toBe(1);
      expect(h.server.members(h.server.tokens.audience)).toHaveLength(1);
      const outcomes = h.server.journal().map((entry) => entry.outcome);
      expect(outcomes.filter((o) => o === 'member_created')).toHaveLength(1);
      expect(outcomes.filter((o) => o === 'member_existing')).toHaveLength(49);
    });

    it.each([
      ['no phone or e-mail', { first_name: 'Ada' }, 'phone: At least one of phone or email is required'],
      ['an invalid e-mail', { email: 'not-an-email' }, 'email: Invalid email address'],
      ['an invalid phone', { phone: '123' }, 'phone'],
      ['an empty phone', { phone: '  ' }, 'phone'],
      ['a non-object custom_fields', { email: 'a@example.com', custom_fields: 'x' }, 'custom_fields'],
      ['a non-string name', { email: 'a@example.com', first_name: 7 }, 'first_name'],
      ['an array', [{ email: 'a@example.com' }], 'object'],
      ['malformed JSON', '{"email": ', 'JSON'],
    ])('answers 400 {error:{detail}} for %s', async (_name, body, mention) => {
      const response = await post(audiencePath(), body);
      expect(response.status).toBe(400);
      expect(ApiErrorBody.parse(response.json).error.detail).toContain(mention);
      expect(h.server.members(h.server.tokens.audience)).toHaveLength(0);
    });

    it('answers 404 Not found. for an unknown or non-uuid token', async () => {
      for (const token of ['3f0c2a9e-4b1d-4c1e-9a7b-2d5e8f6a1b3c', 'nope', h.server.tokens.lead]) {
        const response = await post(`/v1/outbound-campaigns/webhook/${token}/`, { email: 'a@example.com' });
        expect(response.status).toBe(404);
        expect(response.json).toEqual({ error: { detail: ERROR_DETAILS.notFound } });
      }
    });

    it('answers 415 for a body that is not JSON', async () => {
      const response = await post(audiencePath(), 'email=a@example.com', {
        'content-type': 'application/x-www-form-urlencoded',
      });
      expect(response.status).toBe(415);
      expect(ApiErrorBody.parse(response.json).error.detail).toMatch(/application\/x-www-form-urlencoded/);
    });

    it('answers 413 for a body above the limit', async () => {
      const response = await post(audiencePath(), {
        email: 'a@example.com',
        notes: 'x'.repeat(1024 * 1024),
      });
      expect(response.status).toBe(413);
      expect(ApiErrorBody.parse(response.json).error.detail).toMatch(/larger than/);
      // The default limit is the one that applies.
      expect(response.json.error.detail).toContain(String(DEFAULT_MAX_BODY_BYTES));
    });

    it('needs no Authorization header and ignores one', async () => {
      const response = await post(
        audiencePath(),
        { email: 'b@example.com' },
        { authorization: 'Bearer nonsense' },
      );
      expect(response.status).toBe(201);
    });
  });

  describe('lead webhook', () => {
    it('answers 200 {received:true} and starts a conversation', async () => {
      const response = await post(leadPath(), {
        phone_number: '415-555-0199',
        customer_name: 'Ada Lovelace',
      });
      expect(response.status).toBe(200);
      expect(response.json).toEqual({ received: true });
      const [conversation] = h.server.conversations();
      expect(conversation).toMatchObject({ phone: '+14155550199' });
      expect(conversation?.leads[0]?.body).toMatchObject({ customer_name: 'Ada Lovelace' });
    });

    it('deduplicates the same phone for 15 minutes of the clock: 14:59 reuses, 15:01 creates', async () => {
      await post(leadPath(), { phone_number: '(415) 555-0100' });
      h.server.clock.advance(14 * MINUTE + 59_000);
      await post(leadPath(), { phone_number: '+1 415 555 0100' });
      expect(h.server.conversations()).toHaveLength(1);
      expect(h.server.conversations()[0]?.leads).toHaveLength(2);
      h.server.clock.advance(LEAD_DEDUP_WINDOW_MS + MINUTE);
      await post(leadPath(), { phone_number: '4155550100' });
      expect(h.server.conversations()).toHaveLength(2);
      const outcomes = h.server.journal().map((entry) => entry.outcome);
      expect(outcomes).toEqual(['lead_queued', 'lead_deduplicated', 'lead_queued']);
    });

    it('counts exactly 15:00 as within the window, which restarts with each lead', async () => {
      await post(leadPath(), { phone_number: '415-555-0120' });
      h.server.clock.advance(LEAD_DEDUP_WINDOW_MS);
      await post(leadPath(), { phone_number: '415-555-0120' });
      h.server.clock.advance(10 * MINUTE);
      await post(leadPath(), { phone_number: '415-555-0120' });
      h.server.clock.advance(10 * MINUTE);
      await post(leadPath(), { phone_number: '415-555-0120' });
      expect(h.server.conversations()).toHaveLength(1);
      expect(h.server.conversations()[0]?.leads.map((lead) => lead.deduplicated)).toEqual([
        false,
        true,
        true,
        true,
      ]);
    });

    it('keeps different phones apart', async () => {
      await post(leadPath(), { phone_number: '415-555-0101' });
      await post(leadPath(), { phone_number: '415-555-0102' });
      expect(h.server.conversations()).toHaveLength(2);
    });

    it('still answers 200 when processing fails, and records the failure', async () => {
      h.server.injectLeadFailure();
      const injected = await post(leadPath(), { phone_number: '415-555-0103' });
      const unparseable = await post(leadPath(), { phone_number: 'call me maybe' });
      expect([injected.status, unparseable.status]).toEqual([200, 200]);
      expect(injected.json).toEqual({ received: true });
      expect(h.server.conversations()).toHaveLength(0);
      expect(h.server.leads().map((lead) => lead.status)).toEqual(['failed', 'failed']);
      expect(h.server.journal().map((entry) => entry.outcome)).toEqual(['lead_failed', 'lead_failed']);
    });

    it.each([
      ['no phone_number', { customer_name: 'Ada' }],
      ['an empty phone_number', { phone_number: ' ' }],
      ['a numeric phone_number', { phone_number: 4155550123 }],
      ['an empty body', ''],
    ])('answers 400 phone_number is required for %s', async (_name, body) => {
      const response = await post(leadPath(), body);
      expect(response.status).toBe(400);
      expect(response.json).toEqual({ error: ERROR_DETAILS.leadPhoneRequired });
    });

    it('answers 400 in the flat shape for other bad bodies', async () => {
      const wrongType = await post(leadPath(), { phone_number: '415-555-0104', zip: 94103 });
      expect(wrongType.status).toBe(400);
      expect(FlatErrorBody.parse(wrongType.json).error).toBe(
        'zip: Invalid input: expected string, received number',
      );
      const malformed = await post(leadPath(), '{');
      expect(malformed.status).toBe(400);
      expect(FlatErrorBody.parse(malformed.json).error).toMatch(/JSON/);
      const notObject = await post(leadPath(), '"415-555-0104"');
      expect(notObject.status).toBe(400);
      expect(h.server.leads()).toHaveLength(0);
    });

    it('answers 404 Not found for an unknown token and for a deleted lead source', async () => {
      for (const token of [h.server.tokens.deletedLead, h.server.tokens.audience, 'not-a-token']) {
        const response = await post(leadPath(token), { phone_number: '415-555-0105' });
        expect(response.status).toBe(404);
        expect(response.json).toEqual({ error: ERROR_DETAILS.leadNotFound });
      }
    });

    it('answers 415 and 413 in the flat shape', async () => {
      const text = await post(leadPath(), 'phone_number=1', { 'content-type': 'text/plain' });
      expect(text.status).toBe(415);
      expect(FlatErrorBody.safeParse(text.json).success).toBe(true);
      const big = await post(leadPath(), { phone_number: '415-555-0106', notes: 'x'.repeat(1024 * 1024) });
      expect(big.status).toBe(413);
      expect(FlatErrorBody.safeParse(big.json).success).toBe(true);
    });
  });
});
