import {
  CallList,
  CallResponse,
  CallTranscriptResponse,
  RecordingDetailResponse,
  RecordingList,
  RecordingTranscriptResponse,
  TeamResponse,
  UserResponse,
} from '@company-data/contract';
import { describe, expect, it } from 'vitest';
import { type DataChange, RecordNotFoundError } from '../../../src/index.js';
import { engineHarness, useEngine } from '../../support/engine.js';
import { ADA, CALL_1, sampleFixture } from '../../support/fixture-sample.js';

// The record controls, seen through server.handle() with a frozen clock: every change must show in every
// list (both orderings, filters, counts, total_pages, deep pages), in the by-id endpoints and in the journal.

const { h, get } = useEngine();

interface Stored {
  id: string;
  created_at: string;
  [field: string]: unknown;
}

/** Every record of a list, walked page by page. */
async function all(path: string, query = '', send = get): Promise<Stored[]> {
  const items: Stored[] = [];
  for (let page = 1; ; page++) {
    const { json } = await send(`${path}?page_size=100&page=${page}${query}`);
    items.push(...json.data);
    if (page >= json.pagination.total_pages) return items;
  }
}

const ids = (items: readonly { id: string }[]) => items.map((item) => item.id);
/** The order of every list: created_at, then id. */
const byCreation = (a: Stored, b: Stored) =>
  Date.parse(a.created_at) - Date.parse(b.created_at) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

describe('engine: record controls', () => {
  describe('create', () => {
    it('a created call is newest, counted, served by id with a transcript, and in its source’s list', async () => {
      const before = (await get('/v1/calls/?page_size=7')).json.pagination;
      expect(before).toEqual({ count: 240, page: 1, page_size: 7, total_pages: 35 });
      const call = h.server.records.create('calls', { source: 'voice_agent' });
      expect(call.created_at).toBe('2026-06-01T12:00:00Z');
      expect(call.is_excused).toBe(false);
      const page = CallList.parse((await get('/v1/calls/?page_size=7')).json);
      expect(page.data[0]).toEqual(call);
      expect(page.pagination).toEqual({ count: 241, page: 1, page_size: 7, total_pages: 35 });
      expect(CallResponse.parse((await get(`/v1/calls/${call.id.toUpperCase()}/`)).json).data).toEqual(call);
      const transcript = CallTranscriptResponse.parse((await get(`/v1/calls/${call.id}/transcript/`)).json);
      expect(transcript.data.id).toBe(call.id);
      expect(transcript.data.transcript.length).toBeGreaterThan(3);
      const voice = (await get('/v1/calls/?source=voice_agent&page_size=1')).json.data;
      expect(voice[0].id).toBe(call.id);
      const integration = await all('/v1/calls/', '&source=integration');
      expect(ids(integration)).not.toContain(call.id);
      const oldest = (await get('/v1/calls/?ordering=created_at&page_size=100&page=3')).json;
      expect(oldest.data.at(-1).id).toBe(call.id);
    });

    it('a created recording and its transcript are served; the list item has no custom fields', async () => {
      const recording = h.server.records.create('recordings', { name: 'Roof inspection', score: 91 });
      expect(recording.name).toBe('Roof inspection');
      const list = RecordingList.parse((await get('/v1/recordings/?page_size=1')).json);
      const { custom_fields, ...item } = recording;
      expect(list.data[0]).toEqual(item);
      expect(custom_fields.length).toBeGreaterThan(0);
      expect(RecordingDetailResponse.parse((await get(`/v1/recordings/${recording.id}/`)).json).data).toEqual(
        recording,
      );
      const transcript = RecordingTranscriptResponse.parse(
        (await get(`/v1/recordings/${recording.id}/transcript/`)).json,
      ).data;
      expect(transcript.transcript[0]?.words.length).toBeGreaterThan(0);
    });

    it('a created user and team are served; a user’s full name and e-mail follow the names given', async () => {
      const user = h.server.records.create('users', {
        first_name: 'Grace',
        last_name: 'Hopper',
        is_active: false,
      });
      expect(user).toMatchObject({ full_name: 'Grace Hopper', is_active: false });
      expect(user.email).toMatch(/^grace\.hopper\d+@acme-home\.example$/);
      expect(UserResponse.parse((await get(`/v1/users/${user.id}/`)).json).data).toEqual(user);
      expect((await get('/v1/users/?is_active=false&page_size=1')).json.data[0]).toEqual(user);
      const team = h.server.records.create('teams', { description: 'Nights and weekends' });
      expect(TeamResponse.parse((await get(`/v1/teams/${team.id}/`)).json).data).toEqual(team);
    });

    it('places a record created in the past by its created_at, in both orderings', async () => {
      const calls = await all('/v1/calls/', '&ordering=created_at');
      const middle = calls[100] as Stored;
      const call = h.server.records.create('calls', {
        created_at: new Date(Date.parse(middle.created_at) - 1000).toISOString(),
      });
      const after = await all('/v1/calls/', '&ordering=created_at');
      expect(after.findIndex((item) => item.id === call.id)).toBe(100);
      const descending = await all('/v1/calls/');
      expect(ids(descending)).toEqual(ids(after).reverse());
    });

    it('names the user given, and refuses a user that does not exist', async () => {
      const user = h.server.records.create('users', { first_name: 'Ida' });
      const call = h.server.records.create('calls', { user: { id: user.id } });
      expect(call.user).toEqual({ id: user.id, full_name: user.full_name });
      expect(() =>
        h.server.records.create('calls', { user: { id: '00000000-0000-4000-8000-000000000000' } }),
      ).toThrow(/user\.id: no user has id "00000000-0000-4000-8000-000000000000"/);
      expect(() => h.server.records.create('calls', { user: { id: user.id, full_name: 'Someone' } })).toThrow(
        /user\.full_name/,
      );
    });

    it('refuses an id that exists', async () => {
      const id = (await get('/v1/teams/?page_size=1')).json.data[0].id;
      expect(() => h.server.records.create('teams', { id })).toThrow(`A team with id "${id}" already exists`);
    });
  });

  describe('update', () => {
    it('moves a deactivated user from one filter’s list to the other, in place, counts following', async () => {
      const activeBefore = await all('/v1/users/', '&is_active=true&ordering=created_at');
      const inactiveBefore = await all('/v1/users/', '&is_active=false&ordering=created_at');
      const target = activeBefore[3] as Stored;
      const updated = h.server.records.update('users', target.id, { is_active: false });
      const active = await all('/v1/users/', '&is_active=true&ordering=created_at');
      const inactive = await all('/v1/users/', '&is_active=false&ordering=created_at');
      expect(ids(active)).toEqual(ids(activeBefore).filter((id) => id !== target.id));
      expect(inactive).toEqual([...inactiveBefore, updated].sort(byCreation));
      expect((await get('/v1/users/?is_active=false')).json.pagination.count).toBe(inactiveBefore.length + 1);
      h.server.records.update('users', target.id, { is_active: true });
      expect(await all('/v1/users/', '&is_active=true&ordering=created_at')).toEqual(activeBefore);
    });

    it('derives full_name from renamed names; older calls keep the name they embedded', async () => {
      const call = (await get('/v1/calls/?page_size=1')).json.data[0];
      const user = h.server.records.update('users', call.user.id, { first_name: 'Renamed' });
      expect(user.full_name).toBe(`Renamed ${user.last_name}`);
      expect((await get(`/v1/users/${user.id}/`)).json.data.full_name).toBe(user.full_name);
      expect((await get(`/v1/calls/${call.id}/`)).json.data.user).toEqual(call.user);
      expect(h.server.changes().at(-1)?.fields).toEqual(['first_name', 'full_name']);
    });

    it('excuses a call now with a reason, and clears both when it is no longer excused', async () => {
      const call = h.server.records.create('calls', {});
      h.server.clock.advance(90_000);
      const excused = h.server.records.update('calls', call.id, { is_excused: true });
      expect(excused.excused_at).toBe('2026-06-01T12:01:30Z');
      expect(excused.excuse_reason).toEqual(expect.any(String));
      expect((await get(`/v1/calls/${call.id}/`)).json.data).toEqual(excused);
      expect((await get('/v1/calls/?page_size=1')).json.data[0]).toEqual(excused);
      const kept = h.server.records.update('calls', call.id, { excuse_reason: 'Wrong number' });
      expect(kept.excused_at).toBe(excused.excused_at);
      const cleared = h.server.records.update('calls', call.id, { is_excused: false });
      expect(cleared).toMatchObject({ is_excused: false, excused_at: null, excuse_reason: null });
      expect(h.server.changes().at(-1)?.fields).toEqual(['excuse_reason', 'excused_at', 'is_excused']);
    });

    it('keeps a booked call qualified and a cancellation call with a cancellation', () => {
      const call = h.server.records.create('calls', { is_qualified: false, is_booked: false });
      expect(h.server.records.update('calls', call.id, { is_booked: true })).toMatchObject({
        is_booked: true,
        is_qualified: true,
      });
      expect(h.server.records.update('calls', call.id, { is_qualified: false })).toMatchObject({
        is_booked: false,
        is_qualified: false,
      });
      expect(() =>
        h.server.records.update('calls', call.id, { is_booked: true, is_qualified: false }),
      ).toThrow(/a booked call is qualified/);
      expect(h.server.records.update('calls', call.id, { is_cancellation: true })).toMatchObject({
        has_cancellation: true,
      });
    });

    it('a change that changes nothing is not journaled', async () => {
      const id = (await get('/v1/teams/?page_size=1')).json.data[0];
      h.server.records.update('teams', id.id, { name: id.name });
      expect(h.server.changes()).toEqual([]);
    });
  });

  describe('delete', () => {
    it.each([
      ['users', '/v1/users/'],
      ['teams', '/v1/teams/'],
      ['recordings', '/v1/recordings/'],
      ['calls', '/v1/calls/'],
    ] as const)('a deleted %s answers 404 and leaves every list', async (resource, path) => {
      const before = await all(path);
      const target = before[Math.floor(before.length / 2)] as Stored;
      h.server.records.delete(resource, target.id);
      expect((await get(`${path}${target.id}/`)).status).toBe(404);
      if (resource === 'calls' || resource === 'recordings')
        expect((await get(`${path}${target.id}/transcript/`)).status).toBe(404);
      expect(await all(path)).toEqual(before.filter((item) => item.id !== target.id));
      expect((await get(path)).json.pagination.count).toBe(before.length - 1);
      expect(h.server.records.get(resource, target.id)).toBeUndefined();
      expect(() => h.server.records.delete(resource, target.id)).toThrow(RecordNotFoundError);
    });

    it('a deleted created record leaves too, and its id can be created again', async () => {
      const call = h.server.records.create('calls', { source: 'integration' });
      h.server.records.delete('calls', call.id);
      expect((await get(`/v1/calls/${call.id}/`)).status).toBe(404);
      expect(ids(await all('/v1/calls/', '&source=integration'))).not.toContain(call.id);
      const again = h.server.records.create('calls', { id: call.id, source: 'voice_agent' });
      expect((await get(`/v1/calls/${call.id}/`)).json.data).toEqual(again);
    });
  });

  describe('bad input', () => {
    it('names an unknown field with the closest known one', () => {
      expect(() => h.server.records.create('users', { is_activ: true } as never)).toThrow(
        /Unknown user field "is_activ" \(did you mean "is_active"\?\)/,
      );
      expect(() => h.server.records.create('calls', { user: { idd: ADA } } as never)).toThrow(
        /Unknown call\.user field "idd" \(did you mean "id"\?\)/,
      );
    });

    it('names a field of the wrong type and what it expects', () => {
      expect(() => h.server.records.create('users', { is_active: 'yes' } as never)).toThrow(
        /^user\.is_active: .*expected boolean/,
      );
      expect(() => h.server.records.create('calls', { source: 'fax' } as never)).toThrow(/^call\.source: /);
      expect(() => h.server.records.create('users', { email: 'nope' })).toThrow(/^user\.email: /);
    });

    it('refuses fields that never change, derived fields, contradictions and unknown ids or companies', async () => {
      const id = (await get('/v1/calls/?page_size=1')).json.data[0].id;
      expect(() => h.server.records.update('calls', id, { source: 'voice_agent' } as never)).toThrow(
        /call\.source cannot change .* a call can change is_excused, excused_at/,
      );
      expect(() =>
        h.server.records.update('calls', id, { created_at: '2026-01-01T00:00:00Z' } as never),
      ).toThrow(/call\.created_at cannot change/);
      expect(() => h.server.records.create('users', { full_name: 'A B' } as never)).toThrow(
        /user\.full_name is derived from first_name and last_name/,
      );
      expect(() =>
        h.server.records.update('calls', id, { is_excused: false, excuse_reason: 'Spam' }),
      ).toThrow(/call\.excuse_reason: only an excused call has one/);
      expect(() => h.server.records.update('calls', 'nope', { summary: 'x' })).toThrow(
        /No call has id "nope" in Acme Home Services/,
      );
      expect(() => h.server.records.create('teams', {}, { company: 'Initech' })).toThrow(
        'Unknown company "Initech"',
      );
      expect(() => h.server.records.create('teams', null as never)).toThrow(/must be an object/);
      expect(h.server.changes()).toEqual([]);
    });
  });

  describe('journal', () => {
    it('journals each change with its time, company, resource, id, kind, fields and origin', async () => {
      const team = h.server.records.create('teams', { name: 'Night shift' });
      h.server.clock.advance(1000);
      h.server.records.update('teams', team.id, { description: 'Late calls' });
      h.server.records.delete('teams', team.id);
      const company = h.server.apiKeys().find((key) => key.name === 'Full access')?.companyId as string;
      expect(company).toEqual(expect.any(String));
      expect(h.server.changes()).toEqual<DataChange[]>([
        {
          seq: 1,
          at: '2026-06-01T12:00:00.000Z',
          company,
          resource: 'teams',
          id: team.id,
          kind: 'created',
          origin: 'control',
        },
        {
          seq: 2,
          at: '2026-06-01T12:00:01.000Z',
          company,
          resource: 'teams',
          id: team.id,
          kind: 'updated',
          fields: ['description'],
          origin: 'control',
        },
        {
          seq: 3,
          at: '2026-06-01T12:00:01.000Z',
          company,
          resource: 'teams',
          id: team.id,
          kind: 'deleted',
          origin: 'control',
        },
      ]);
      h.server.clearChanges();
      expect(h.server.changes()).toEqual([]);
      h.server.records.create('teams', {});
      expect(h.server.changes()[0]?.seq).toBe(1);
    });
  });

  describe('companies, fixtures, reset', () => {
    it('works on another company by name, leaving the primary one alone', async () => {
      const before = (await get('/v1/calls/')).json.pagination.count;
      const call = h.server.records.create('calls', {}, { company: 'Globex Contact Center' });
      expect((await get('/v1/calls/')).json.pagination.count).toBe(before);
      expect((await get(`/v1/calls/${call.id}/`, h.server.keys.otherCompany)).json.data).toEqual(call);
      expect(h.server.records.get('calls', call.id)).toBeUndefined();
      expect(h.server.records.get('calls', call.id, { company: 'Globex Contact Center' })).toEqual(call);
    });

    it('changes a fixture’s records the same way', async () => {
      h.server.loadFixture(sampleFixture());
      const key = h.server.keys.valid;
      h.server.records.update('calls', CALL_1, { is_excused: true, excuse_reason: 'Spam' });
      const call = h.server.records.create('calls', { user: { id: ADA } });
      expect(call.user.full_name).toBe('Ada Lovelace');
      const transcript = (await get(`/v1/calls/${call.id}/transcript/`, key)).json.data.transcript;
      expect(transcript.length).toBeGreaterThan(0);
      const calls = await all('/v1/calls/', '&ordering=created_at', (path) => get(path, key));
      expect(calls.at(-1)).toEqual(call);
      expect(calls.find((item) => item.id === CALL_1)).toMatchObject({
        is_excused: true,
        excuse_reason: 'Spam',
      });
      const user = h.server.records.create('users', { first_name: 'Lin' });
      expect(user.email).toMatch(/^lin\./);
    });

    it('reset, reseed and loadFixture drop every change and empty the change journal', async () => {
      const before = await all('/v1/calls/');
      const call = h.server.records.create('calls', {});
      h.server.records.delete('calls', (before[0] as Stored).id);
      h.server.reset();
      expect(h.server.changes()).toEqual([]);
      expect(await all('/v1/calls/')).toEqual(before);
      expect(h.server.records.get('calls', call.id)).toBeUndefined();
      h.server.records.create('calls', {});
      h.server.reseed();
      expect(h.server.changes()).toEqual([]);
      h.server.records.create('calls', {});
      h.server.loadFixture(sampleFixture());
      expect(h.server.changes()).toEqual([]);
    });
  });

  describe('determinism', () => {
    it('the same seed and the same controls give the same ids and bytes', async () => {
      const run = async () => {
        const harness = engineHarness({ seed: 9 });
        const { server } = harness;
        const user = server.records.create('users', {});
        const call = server.records.create('calls', { user: { id: user.id } });
        server.records.create('recordings', {});
        server.records.update('calls', call.id, { is_excused: true });
        const headers = { authorization: `Bearer ${server.keys.valid}` };
        const bodies = await Promise.all(
          ['/v1/calls/?page_size=3', `/v1/calls/${call.id}/transcript/`, '/v1/recordings/?page_size=2'].map(
            async (path) => (await harness.send({ path, headers })).text,
          ),
        );
        await harness.close();
        return { ids: [user.id, call.id], bodies };
      };
      expect(await run()).toEqual(await run());
    });
  });

  describe('deep pages of a large table', () => {
    it('pages, counts and filters match a model after thousands of inserts, deletes and updates', async () => {
      const harness = engineHarness({ sizes: { calls: 20_000 } });
      const { server } = harness;
      const headers = { authorization: `Bearer ${server.keys.valid}` };
      const send = async (path: string) => harness.send({ path, headers });
      try {
        const model = await all('/v1/calls/', '&ordering=created_at', send);
        const first = Date.parse((model[0] as Stored).created_at);
        const span = Date.parse((model.at(-1) as Stored).created_at) - first;
        // A seeded walk over the table: inserts anywhere in time, deletes and source-neutral updates.
        let state = 7;
        const next = (bound: number) => {
          state = (Math.imul(state, 1103515245) + 12345) >>> 0;
          return state % bound;
        };
        for (let step = 0; step < 3000; step++) {
          const choice = next(3);
          if (choice === 0) {
            const created_at = new Date(first + next(span)).toISOString().replace('.000Z', 'Z');
            model.push(server.records.create('calls', { created_at }) as unknown as Stored);
          } else {
            const at = next(model.length);
            const target = model[at] as Stored;
            if (choice === 1) {
              server.records.delete('calls', target.id);
              model.splice(at, 1);
            } else
              model[at] = server.records.update('calls', target.id, {
                score: next(100),
              }) as unknown as Stored;
          }
        }
        model.sort(byCreation);
        for (const source of [undefined, 'voice_agent'] as const) {
          const expected = source === undefined ? model : model.filter((call) => call.source === source);
          const query = source === undefined ? '' : `&source=${source}`;
          // The model's page count, rounded up as the server does: the literal cases pin that rounding (data-and-keys).
          const totalPages = Math.ceil(expected.length / 100);
          for (const page of [1, 2, Math.floor(totalPages / 2), totalPages - 1, totalPages]) {
            const ascending = (
              await send(`/v1/calls/?page_size=100&page=${page}&ordering=created_at${query}`)
            ).json;
            expect(ascending.pagination).toEqual({
              count: expected.length,
              page,
              page_size: 100,
              total_pages: totalPages,
            });
            expect(ascending.data).toEqual(expected.slice((page - 1) * 100, page * 100));
            const descending = (await send(`/v1/calls/?page_size=100&page=${page}${query}`)).json;
            expect(descending.data).toEqual([...expected].reverse().slice((page - 1) * 100, page * 100));
          }
        }
      } finally {
        await harness.close();
      }
    });
  });
});
