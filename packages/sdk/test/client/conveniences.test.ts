import type { MockServer } from '@company-data/mock-server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ClientClosedError,
  CompanyData,
  ConfigurationError,
  extraField,
  InvalidResponseError,
  NotFoundError,
  ServerError,
} from '../../src/index.js';
import {
  clientFor,
  DEFAULT_MOCK,
  manualTime,
  recordingLogger,
  type Target,
  targets,
  wholeList,
} from '../support/harness.js';
import { turn } from '../support/turns.js';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe.each(targets)('what users of the anchors expect ($name)', (target: Target) => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await target.start({ clock: 'frozen' });
  });
  beforeEach(() => mock.reset());
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.useRealTimers();
  });
  afterAll(() => mock.close());

  describe('withOptions()', () => {
    it('a derived client shares the rate gate: a 429 on it pauses its parent', async () => {
      const time = manualTime(mock);
      const { client } = clientFor(target, mock, { sleep: time.sleep, now: time.now });
      const derived = client.withOptions({ maxRetries: 5 });
      mock.injectFault({ path: '/v1/users/', status: 429, headers: { 'Retry-After': '5' } });
      const throttled = derived.users.list();
      await vi.waitFor(() => expect(time.pending).toHaveLength(1));
      const pausedAt = mock.clock.now().getTime();
      const parentCall = client.teams.list();
      for (let index = 0; index < 5; index++) await turn();
      expect(mock.journal()).toHaveLength(1);
      time.release();
      await Promise.all([throttled, parentCall]);
      const teams = mock.journal().find((entry) => entry.path === '/v1/teams/');
      // Held for the pause, to the millisecond (the mock's clock is frozen; only the pause moved it).
      expect(Date.parse(teams?.at ?? '')).toBe(pausedAt + 5_000);
      await client.close();
    });

    it('applies its own options, merges default headers, and closes with its parent', async () => {
      const { client } = clientFor(target, mock, { defaultHeaders: { 'X-Team': 'data' } });
      const failFast = client.withOptions({ maxRetries: 0, defaultHeaders: { 'X-Source': 'ui' } });
      mock.injectFault({ path: '/v1/teams/', status: 503 });
      await expect(failFast.teams.list()).rejects.toBeInstanceOf(ServerError);
      mock.injectFault({ path: '/v1/teams/', status: 503 });
      await expect(client.teams.list()).resolves.toMatchObject(wholeList(DEFAULT_MOCK.teams));
      expect(mock.journal().map((entry) => entry.status)).toEqual([503, 503, 200]);
      expect(mock.journal()[0]?.headers).toMatchObject({ 'x-team': 'data', 'x-source': 'ui' });
      expect(mock.journal()[1]?.headers['x-source']).toBeUndefined();
      expect(failFast.baseURL).toBe(client.baseURL);
      // One pool: closing the derived client closes its parent too.
      await failFast.close();
      await expect(client.teams.list()).rejects.toBeInstanceOf(ClientClosedError);
    });

    it('refuses to change what it shares with its parent, and unknown or invalid options', () => {
      const client = new CompanyData({ apiKey: mock.keys.valid, baseURL: mock.baseURL });
      const refused = (options: object) => {
        const error = (() => {
          try {
            client.withOptions(options as never);
          } catch (caught) {
            return caught;
          }
        })();
        expect(error).toBeInstanceOf(ConfigurationError);
        return (error as Error).message;
      };
      expect(refused({ apiKey: mock.keys.limited })).toContain(
        '`apiKey` (shared with the parent client, with its connection pool and rate gate: create a new CompanyData to change it)',
      );
      expect(refused({ dispatcher: mock.dispatcher })).toContain(
        '`dispatcher` (shared with the parent client',
      );
      expect(refused({ maxRetires: 1 })).toContain('`maxRetires` (did you mean `maxRetries`?)');
      expect(refused({ timeout: -1 })).toBe(
        'Invalid options for client.withOptions(): ✖ Expected a number of milliseconds from 1 to 2147483647\n  → at timeout',
      );
    });
  });

  describe('.asResponse()', () => {
    it('gives the raw response, neither parsed nor checked, after the same retries', async () => {
      const { client } = clientFor(target, mock);
      mock.injectFault({ path: '/v1/teams/', status: 503 });
      const response = await client.teams.list({ page_size: 2 }).asResponse();
      expect(response).toBeInstanceOf(Response);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('application/json');
      const body = (await response.json()) as { data: unknown[]; pagination: { page_size: number } };
      expect(body.data).toHaveLength(2);
      expect(body.pagination.page_size).toBe(2);
      expect(mock.journal().map((entry) => entry.status)).toEqual([503, 200]);

      const broken = {
        data: [{ id: 'not-a-uuid' }],
        pagination: { count: 1, page: 1, page_size: 25, total_pages: 1 },
      };
      mock.injectFault({ path: '/v1/teams/', status: 200, body: broken, times: 2 });
      await expect(client.teams.list()).rejects.toBeInstanceOf(InvalidResponseError);
      await expect((await client.teams.list().asResponse()).json()).resolves.toEqual(broken);

      await expect(client.users.retrieve(UNKNOWN_ID).asResponse()).rejects.toBeInstanceOf(NotFoundError);
      await client.close();
    });
  });

  describe('extraField()', () => {
    it('reads a field the server added, which the types do not declare, at any depth', async () => {
      const { client } = clientFor(target, mock);
      const [call] = await client.calls.list({ page_size: 1 }).toArray({ limit: 1 });
      if (!call) throw new Error('the mock has no call');
      const grown = {
        ...call,
        recording_url: 'https://cdn.example/call.mp3',
        user: { ...call.user, email: 'a@b.c' },
      };
      mock.injectFault({ path: `/v1/calls/${call.id}/`, status: 200, body: { data: grown } });
      const retrieved = await client.calls.retrieve(call.id);
      expect(extraField(retrieved, 'recording_url')).toBe('https://cdn.example/call.mp3');
      expect(extraField(retrieved.user, 'email')).toBe('a@b.c');
      expect(extraField(retrieved, 'not_sent')).toBeUndefined();
      expect(extraField(retrieved, 'constructor')).toBeUndefined();
      await client.close();
    });
  });

  describe('logging', () => {
    it('COMPANY_DATA_LOG sets the level; debug lines carry the URL, status and duration, never the key', async () => {
      vi.stubEnv('COMPANY_DATA_LOG', 'DEBUG');
      // The duration is real time (performance.now), frozen here so that it is exactly 0.
      vi.useFakeTimers({ toFake: ['performance'] });
      const logger = recordingLogger();
      const { client } = clientFor(target, mock, { logger, logLevel: undefined });
      await client.teams.list({ page_size: 3 });
      const url = `${mock.baseURL}/teams/?page_size=3&page=1`;
      const [request, response] = logger.lines;
      expect(request).toEqual({
        level: 'debug',
        args: [`company-data request GET ${url}`, { operation: 'GET /teams/', url, attempt: 1 }],
      });
      expect(response?.args[0]).toBe(`company-data response 200 GET ${url} in 0 ms`);
      expect(response?.args[1]).toEqual({
        operation: 'GET /teams/',
        url,
        attempt: 1,
        status: 200,
        durationMs: 0,
      });
      expect(JSON.stringify(logger.lines)).not.toContain(mock.keys.valid);
      await client.close();
    });

    it('an explicit logLevel wins over COMPANY_DATA_LOG; an unknown level names the closest', async () => {
      vi.stubEnv('COMPANY_DATA_LOG', 'debug');
      const logger = recordingLogger();
      const { client } = clientFor(target, mock, { logger, logLevel: 'warn' });
      await client.teams.list();
      expect(logger.lines).toEqual([]);
      await client.close();
      vi.stubEnv('COMPANY_DATA_LOG', 'warning');
      expect(() => new CompanyData()).toThrow(ConfigurationError);
      expect(() => new CompanyData()).toThrow(
        'COMPANY_DATA_LOG is "warning" (did you mean `warn`?): expected one of debug, info, warn, error, off.',
      );
      // A blank variable is no level: the default, warn (a 429's warning is written, no debug line).
      vi.stubEnv('COMPANY_DATA_LOG', ' ');
      const blank = recordingLogger();
      const defaulted = clientFor(target, mock, { logger: blank, logLevel: undefined }).client;
      mock.injectFault({ path: '/v1/teams/', status: 429, headers: { 'Retry-After': '1' } });
      await defaulted.teams.list();
      expect(blank.lines.map((line) => line.args[0])).toEqual([
        'company-data rate limited: pausing every request through the rate gate for 1000 ms',
      ]);
      expect(blank.lines[0]?.level).toBe('warn');
      await defaulted.close();
    });
  });
});
