import { endpoints } from '@company-data/contract';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/index.js';
import { resolveWebhookUrl } from '../../src/resources/webhook-target.js';

const TOKEN = '3f0c2a9e-4b1d-4c1e-9a7b-2d5e8f6a1b3c';
const base = () => 'https://api.example.com/v1';
const root = () => 'https://api.example.com';

describe('resolveWebhookUrl', () => {
  it('appends a bare token to the configured base, and shows the URL with the token redacted', () => {
    expect(resolveWebhookUrl(endpoints.addAudienceMember, ` ${TOKEN} `, base)).toEqual({
      url: `https://api.example.com/v1/outbound-campaigns/webhook/${TOKEN}/`,
      shownUrl: 'https://api.example.com/v1/outbound-campaigns/webhook/[redacted]/',
    });
    expect(resolveWebhookUrl(endpoints.submitLead, TOKEN, root)).toEqual({
      url: `https://api.example.com/messaging-agent/webhook/${TOKEN}/`,
      shownUrl: 'https://api.example.com/messaging-agent/webhook/[redacted]/',
    });
  });

  it('posts a copied URL as given, keeping its origin and path prefix, without needing a base', () => {
    const never = () => {
      throw new Error('base must not be read for a URL');
    };
    expect(
      resolveWebhookUrl(
        endpoints.addAudienceMember,
        `https://app.example.com/api/v1/outbound-campaigns/webhook/${TOKEN}?utm=x#top`,
        never,
      ).url,
    ).toBe(`https://app.example.com/api/v1/outbound-campaigns/webhook/${TOKEN}/`);
    expect(
      resolveWebhookUrl(endpoints.submitLead, `http://127.0.0.1:9/messaging-agent/webhook/${TOKEN}/`, never)
        .shownUrl,
    ).toBe('http://127.0.0.1:9/messaging-agent/webhook/[redacted]/');
  });

  it('rejects the URL of the other webhook and names the right method', () => {
    const leadUrl = `https://api.example.com/messaging-agent/webhook/${TOKEN}/`;
    expect(() => resolveWebhookUrl(endpoints.addAudienceMember, leadUrl, base)).toThrow(
      /client\.leads\.submit\(\)/,
    );
    const audienceUrl = `https://api.example.com/v1/outbound-campaigns/webhook/${TOKEN}/`;
    expect(() => resolveWebhookUrl(endpoints.submitLead, audienceUrl, root)).toThrow(
      /client\.audiences\.addMember/,
    );
  });

  it('rejects unrelated URLs, bad tokens and garbage, without echoing the token', () => {
    const cases = [
      'https://api.example.com/v1/users/',
      'https://api.example.com/',
      `https://api.example.com/v1/outbound-campaigns/webhook/not-a-uuid/`,
      'http://[::1',
      'not-a-uuid',
      '',
    ];
    for (const input of cases) {
      let thrown: unknown;
      try {
        resolveWebhookUrl(endpoints.addAudienceMember, input, base);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, input).toBeInstanceOf(ValidationError);
      expect((thrown as ValidationError).issues).toHaveLength(1);
      if (input.length > 0) expect((thrown as Error).message).not.toContain(input);
    }
    expect(() => resolveWebhookUrl(endpoints.submitLead, undefined as unknown as string, root)).toThrow(
      ValidationError,
    );
    expect(() =>
      resolveWebhookUrl(endpoints.submitLead, 'https://x.example/messaging-agent/webhook/%E0%A4%A/', root),
    ).toThrow(ValidationError);
  });
});
