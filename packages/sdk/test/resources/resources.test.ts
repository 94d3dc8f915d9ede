import type { MockServer } from '@company-data/mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompanyData } from '../../src/index.js';
import { SDK_VERSION } from '../../src/index.js';
import { clientFor, DEFAULT_MOCK, targets, wholeList } from '../support/harness.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe.each(targets)('resources ($name)', (target) => {
  let mock: MockServer;
  let client: CompanyData;

  beforeAll(async () => {
    mock = await target.start();
    ({ client } = clientFor(target, mock));
  });
  afterAll(async () => {
    await client.close();
    await mock.close();
  });

  it('users.list and users.retrieve, with the is_active filter', async () => {
    const page = await client.users.list();
    expect(page).toMatchObject(wholeList(DEFAULT_MOCK.users));
    const active = await client.users.list({ is_active: true }).toArray();
    expect(active.length).toBeGreaterThan(0);
    expect(active.every((user) => user.is_active)).toBe(true);
    const inactive = await client.users.list({ is_active: false }).toArray();
    expect(active.length + inactive.length).toBe(page.pagination.count);
    const first = page.data[0];
    expect(await client.users.retrieve(first?.id ?? '')).toEqual(first);
  });

  it('teams.list and teams.retrieve', async () => {
    const [team] = await client.teams.list({ page_size: 1 }).toArray({ limit: 1 });
    expect(team?.id).toMatch(UUID);
    expect(await client.teams.retrieve(team?.id ?? '')).toEqual(team);
  });

  it('recordings.list (no custom fields), retrieve (with them) and transcript (with words)', async () => {
    const page = await client.recordings.list({ page_size: 3 });
    expect(page.data).toHaveLength(3);
    const recording = page.data[0];
    expect(recording?.id).toMatch(UUID);
    expect(recording).not.toHaveProperty('custom_fields');
    const detail = await client.recordings.retrieve(recording?.id ?? '');
    expect(detail).toMatchObject(recording ?? {});
    expect(Array.isArray(detail.custom_fields)).toBe(true);
    const transcript = await client.recordings.transcript(detail.id);
    expect(transcript.id).toBe(detail.id);
    expect(transcript.transcript.length).toBeGreaterThan(0);
    expect(Array.isArray(transcript.transcript[0]?.words)).toBe(true);
  });

  it('calls.list with the source filter, calls.retrieve and calls.transcript', async () => {
    const voice = await client.calls.list({ source: 'voice_agent', page_size: 100 }).toArray();
    expect(voice.length).toBeGreaterThan(0);
    expect(voice.every((call) => call.source === 'voice_agent')).toBe(true);
    const call = voice[0];
    expect(await client.calls.retrieve(call?.id ?? '')).toEqual(call);
    const transcript = await client.calls.transcript(call?.id ?? '');
    expect(transcript.id).toBe(call?.id);
    expect(transcript.transcript.length).toBeGreaterThan(0);
  });

  it('withResponse() gives status and headers, for a record and for a list page', async () => {
    const listed = await client.teams.list().withResponse();
    expect(listed.response.status).toBe(200);
    expect(listed.response.headers['content-type']).toContain('application/json');
    expect(listed.data).toMatchObject(wholeList(DEFAULT_MOCK.teams));
    expect(listed.data.hasNextPage()).toBe(false);
    const one = await client.teams.retrieve(listed.data.data[0]?.id ?? '').withResponse();
    expect(one.response.status).toBe(200);
    expect(one.data.id).toBe(listed.data.data[0]?.id);
  });

  it('sends the key as a Bearer token, a User-Agent naming the SDK, and only the parameters given', async () => {
    const before = mock.journal().length;
    await client.calls.list({ source: 'integration', page_size: 5 });
    const [entry] = mock.journal().slice(before);
    expect(entry?.path).toBe('/v1/calls/');
    expect(entry?.query).toEqual({ source: 'integration', page_size: '5', page: '1' });
    // A Bearer token (the journal hides its value), and the key the client was given: the server named it.
    expect(entry?.headers.authorization).toBe('Bearer [REDACTED]');
    expect(entry?.keyName).toBe('Full access');
    expect(entry?.headers['user-agent']).toBe(
      `company-data-sdk/${SDK_VERSION} node/${process.versions.node}`,
    );
    expect(entry?.headers.accept).toBe('application/json');
  });
});
