import { API_KEY_PREFIX } from '@company-data/contract';
import { describe, expect, it } from 'vitest';
import { ConfigurationError, ENVIRONMENT_VARIABLES, readConnectionSettings } from '../../src/index.js';

const KEY = `${API_KEY_PREFIX}abc`;

describe('readConnectionSettings', () => {
  it('reads the option before the variable, trimmed, and says where each came from', () => {
    const env = {
      [ENVIRONMENT_VARIABLES.apiKey]: ` ${KEY} `,
      [ENVIRONMENT_VARIABLES.baseURL]: 'http://a.test/v1',
    };
    const fromEnv = readConnectionSettings({}, { env });
    expect(fromEnv.apiKey).toEqual({
      given: KEY,
      from: 'COMPANY_DATA_API_KEY',
      value: KEY,
      error: undefined,
    });
    expect(fromEnv.baseURL).toMatchObject({ from: 'COMPANY_DATA_BASE_URL', value: 'http://a.test/v1' });
    const fromOption = readConnectionSettings({ baseURL: 'http://b.test/v1//' }, { env });
    expect(fromOption.baseURL).toEqual({
      given: 'http://b.test/v1//',
      from: 'baseURL',
      value: 'http://b.test/v1',
      error: undefined,
    });
  });

  it('reports a missing setting as nothing found, not an error', () => {
    const { apiKey, baseURL } = readConnectionSettings({ apiKey: '  ' }, { env: {} });
    expect(apiKey).toEqual({ given: undefined, from: undefined, value: undefined, error: undefined });
    expect(baseURL.given).toBeUndefined();
  });

  it('returns refusals as ConfigurationErrors worded with the names the caller gives', () => {
    const names = { apiKey: '--api-key', baseURL: '--base-url' };
    const { apiKey, baseURL } = readConnectionSettings(
      { apiKey: `Bearer ${KEY}`, baseURL: 'http://a.test/' },
      { env: {}, names },
    );
    expect(apiKey.error).toBeInstanceOf(ConfigurationError);
    expect(apiKey.error?.message).toMatch(/^--api-key starts with "Bearer "/);
    expect(apiKey.value).toBeUndefined();
    expect(baseURL.error?.message).toBe(
      "--base-url must be the API's base URL, whose path ends in /v1 (got http://a.test/): use http://a.test/v1",
    );
    const fromEnv = readConnectionSettings({}, { env: { COMPANY_DATA_API_KEY: `bearer ${KEY}` }, names });
    expect(fromEnv.apiKey.error?.message).toMatch(/^COMPANY_DATA_API_KEY starts with "Bearer "/);
  });
});
