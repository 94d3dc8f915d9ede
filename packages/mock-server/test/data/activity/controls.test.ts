import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { createMockServer, DEFAULT_ACTIVITY, startMockServer } from '../../../src/index.js';

describe('the activity controls', () => {
  it('takes the activity as an option, fills in the defaults, and refuses a bad one saying why', () => {
    expect(createMockServer().activity()).toBe(false);
    expect(createMockServer({ activity: {} }).activity()).toEqual(DEFAULT_ACTIVITY);
    expect(createMockServer({ activity: { callsPerMinute: 60 } }).activity()).toEqual({
      ...DEFAULT_ACTIVITY,
      callsPerMinute: 60,
    });
    expect(() => createMockServer({ activity: { callsPerMinute: -1 } })).toThrow(
      'activity: callsPerMinute must be a number from 0 to 60000',
    );
  });

  it('changes it with setActivity, keeps the one in force when refused, and goes back to the options’ on reset', () => {
    const server = createMockServer({ clock: 'frozen', activity: { recordingsPerHour: 1 } });
    server.setActivity({ callsPerMinute: 1 });
    expect(server.activity()).toEqual({ ...DEFAULT_ACTIVITY, callsPerMinute: 1 });
    expect(() => server.setActivity({ excusedShare: 2 })).toThrow(RangeError);
    expect(() => server.setActivity({ calls: 2 } as never)).toThrow(
      'activity: unknown field "calls" (did you mean "callsPerMinute"?)',
    );
    expect(server.activity()).toEqual({ ...DEFAULT_ACTIVITY, callsPerMinute: 1 });
    server.setActivity(false);
    expect(server.activity()).toBe(false);
    server.reset();
    expect(server.activity()).toEqual({ ...DEFAULT_ACTIVITY, recordingsPerHour: 1 });
  });

  it('reads and sets it over the admin API, with the same messages', async () => {
    const server = await startMockServer({ port: 0, adminToken: 'admin-secret', clock: 'frozen' });
    const admin = async (method: 'GET' | 'POST', body?: unknown) => {
      const response = await request(`${server.apiRoot}/__admin/activity`, {
        method,
        headers: { authorization: 'Bearer admin-secret', 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.statusCode, json: (await response.body.json()) as Record<string, unknown> };
    };
    try {
      expect(await admin('GET')).toEqual({ status: 200, json: { data: false } });
      expect(await admin('POST', { callsPerMinute: 30 })).toEqual({
        status: 200,
        json: { data: { ...DEFAULT_ACTIVITY, callsPerMinute: 30 } },
      });
      expect((await admin('GET')).json).toEqual({ data: { ...DEFAULT_ACTIVITY, callsPerMinute: 30 } });
      expect(await admin('POST', { callsPerMinut: 30 })).toEqual({
        status: 400,
        json: {
          error: {
            detail: expect.stringContaining(
              'activity: unknown field "callsPerMinut" (did you mean "callsPerMinute"?)',
            ),
          },
        },
      });
      expect((await admin('POST', { excusedShare: 'lots' })).json).toEqual({
        error: { detail: 'activity: excusedShare must be a number from 0 to 1 (e.g. 0.1 for 10%)' },
      });
      expect((await admin('POST', [])).json).toEqual({
        error: { detail: 'activity: expects an object such as { callsPerMinute: 6 } (or false for none)' },
      });
      expect(await admin('POST', false)).toEqual({ status: 200, json: { data: false } });
      expect(server.activity()).toBe(false);
    } finally {
      await server.close();
    }
  });
});
