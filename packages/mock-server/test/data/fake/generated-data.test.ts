import {
  type Call,
  CallList,
  RecordingDetail,
  RecordingTranscript,
  Team,
  USER_PERMISSIONS_SEEN,
  User,
} from '@company-data/contract';
import fc from 'fast-check';
import { request } from 'undici';
import { describe, expect, it, vi } from 'vitest';
import { generateStore } from '../../../src/data/fake/seeded-store.js';
import { RecordIdCodec } from '../../../src/data/random/record-ids.js';
import { GeneratedTable } from '../../../src/data/store/table.js';
import { createMockServer, type MockServer } from '../../../src/index.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read JSON bodies loosely.
type Loose = any;

async function get(server: MockServer, path: string, key = server.keys.valid): Promise<Loose> {
  const response = await request(`${server.baseURL}${path}`, {
    dispatcher: server.dispatcher,
    headers: { authorization: `Bearer ${key}` },
  });
  return response.body.json();
}

describe('record ids', () => {
  it('decode back to their position, and only with their own codec', () => {
    const codec = new RecordIdCodec(123, 4);
    const other = new RecordIdCodec(124, 4);
    const otherKind = new RecordIdCodec(123, 3);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), (position) => {
        const id = codec.encode(position);
        expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        expect(codec.decode(id)).toBe(position);
        expect(other.decode(id)).toBeUndefined();
        expect(otherKind.decode(id)).toBeUndefined();
      }),
    );
  });

  it('reject uuids they did not make', () => {
    const codec = new RecordIdCodec(1, 1);
    fc.assert(
      fc.property(fc.uuid(), (uuid) => {
        expect(codec.decode(uuid)).toBeUndefined();
      }),
    );
    expect(codec.decode('short')).toBeUndefined();
    expect(codec.decode('zzzzzzzz-zzzz-4zzz-8zzz-zzzzzzzzzzzz')).toBeUndefined();
    const id = codec.encode(5);
    expect(codec.decode(`${id.slice(0, 35)}${id.endsWith('0') ? '1' : '0'}`)).toBeUndefined();
  });
});

describe('generated data', () => {
  it('is the same for the same seed and differs for another', async () => {
    const a = createMockServer({ seed: 11 });
    const b = createMockServer({ seed: 11 });
    const c = createMockServer({ seed: 12 });
    expect(a.keys).toEqual(b.keys);
    expect(a.tokens).toEqual(b.tokens);
    expect(await get(a, '/calls/?page_size=100')).toEqual(await get(b, '/calls/?page_size=100'));
    expect(a.keys.valid).not.toBe(c.keys.valid);
    expect((await get(a, '/users/')).data[0].id).not.toBe((await get(c, '/users/')).data[0].id);
    for (const key of Object.values(a.keys)) expect(key).toMatch(/^svc_live_[0-9A-Za-z]{40}$/);
  });

  it('only ever stores key hashes', () => {
    const { store, keys } = generateStore(
      1,
      { users: 1, teams: 0, recordings: 0, calls: 0 },
      Date.parse('2026-06-01T12:00:00Z'),
    );
    const serialized = JSON.stringify(store.keys.all());
    for (const value of Object.values(keys)) expect(serialized).not.toContain(value);
    expect(store.keys.all()[0]?.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is realistic and matches the contract', async () => {
    const server = createMockServer({ sizes: { users: 300, teams: 15, recordings: 100, calls: 400 } });
    const users: User[] = [];
    for (let page = 1; page <= 3; page++)
      users.push(...(await get(server, `/users/?page_size=100&page=${page}`)).data);
    expect(new Set(users.map((user) => User.parse(user).email)).size).toBe(300);
    expect(users.every((user) => user.full_name === `${user.first_name} ${user.last_name}`)).toBe(true);
    const permissions = new Set(users.flatMap((user) => user.permissions));
    expect([...permissions].sort()).toEqual([...USER_PERMISSIONS_SEEN].sort());
    const teams = (await get(server, '/teams/?page_size=15')).data.map((team: unknown) => Team.parse(team));
    expect(new Set(teams.map((team: Team) => team.name)).size).toBe(15);

    const calls: Call[] = [];
    for (let page = 1; page <= 4; page++)
      calls.push(...CallList.parse(await get(server, `/calls/?page_size=100&page=${page}`)).data);
    const excused = calls.filter((call) => call.is_excused);
    expect(excused.length).toBeGreaterThan(10);
    expect(excused.every((call) => call.excused_at !== null && call.excuse_reason !== null)).toBe(true);
    expect(
      calls
        .filter((call) => !call.is_excused)
        .every((call) => call.excused_at === null && call.excuse_reason === null),
    ).toBe(true);
    expect(new Set(calls.map((call) => call.source))).toEqual(new Set(['integration', 'voice_agent']));
    expect(
      calls.every(
        (call) =>
          Date.parse(call.end_time) - Date.parse(call.start_time) === call.audio_duration_seconds * 1000,
      ),
    ).toBe(true);
    const userIds = new Set(users.map((user) => user.id));
    expect(calls.every((call) => userIds.has(call.user.id))).toBe(true);

    const ids = (await get(server, '/recordings/?page_size=100')).data.map((r: { id: string }) => r.id);
    const fields = [];
    for (const id of ids.slice(0, 30)) {
      const detail = RecordingDetail.parse((await get(server, `/recordings/${id}/`)).data);
      fields.push(...detail.custom_fields);
      const { transcript } = RecordingTranscript.parse(
        (await get(server, `/recordings/${id}/transcript/`)).data,
      );
      for (const segment of transcript) {
        expect(segment.text).toBe(segment.words.map((word) => word.text).join(' '));
        expect(segment.words.every((word) => word.speaker === segment.speaker && word.end > word.start)).toBe(
          true,
        );
      }
    }
    expect(new Set(fields.map((field) => field.source))).toEqual(new Set(['ai', 'manual']));
    for (const field of fields)
      expect(typeof field.value).toBe(field.value_type === 'number' ? 'number' : 'string');
  });

  it('serves a million calls, a deep page costing what the first does', async () => {
    const server = createMockServer({ sizes: { calls: 1_000_000 } });
    // Work, not time (time is bench figure 4c): the records derived to answer a page.
    const derived = vi.spyOn(GeneratedTable.prototype, 'at');
    await get(server, '/calls/?page=1&page_size=25');
    const forFirst = derived.mock.calls.length;
    derived.mockClear();
    const deep = await get(server, '/calls/?page=40000&page_size=25');
    expect(derived.mock.calls.length).toBe(forFirst);
    expect(forFirst).toBe(2 * 25); // each call of the page, and the user it names
    derived.mockRestore();
    expect(deep.pagination).toEqual({ count: 1_000_000, page: 40000, page_size: 25, total_pages: 40000 });
    expect(deep.data).toHaveLength(25);
    const oldest = await get(server, '/calls/?ordering=created_at&page_size=1');
    expect(deep.data[24].id).toBe(oldest.data[0].id);
    const retrieved = await get(server, `/calls/${deep.data[3].id}/`);
    expect(retrieved.data).toEqual(deep.data[3]);
    const integration = (await get(server, '/calls/?source=integration')).pagination.count;
    const voice = await get(server, '/calls/?source=voice_agent&page=1000&page_size=100');
    expect(integration + voice.pagination.count).toBe(1_000_000);
    expect(voice.data.every((call: { source: string }) => call.source === 'voice_agent')).toBe(true);
    const times = voice.data.map((call: { created_at: string }) => call.created_at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('keeps at least one user when there are records, and refuses bad sizes', async () => {
    const server = createMockServer({ sizes: { users: 0, calls: 3 } });
    expect((await get(server, '/users/')).pagination.count).toBe(1);
    expect(() => createMockServer({ sizes: { calls: -1 } })).toThrow(RangeError);
    expect(() => createMockServer({ sizes: { calls: 1.5 } })).toThrow(RangeError);
    expect(() => createMockServer({ maxBodyBytes: -1 })).toThrow(RangeError);
  });
});
