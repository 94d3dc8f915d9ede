import { describe, expect, it } from 'vitest';
import { generateCompany } from '../../../src/data/fake/generate-company.js';
import { sharedTable } from '../../../src/data/fake/shared-tables.js';
import { createMockServer } from '../../../src/index.js';

// Worlds of one spec share its generated tables (sessions of one seed, servers of one test file): the
// records are made once, and every world keeps its own changes over them.

const spec = {
  id: '1f4292b2-6e73-40a2-9e24-7529136f9087',
  name: 'Acme Home Services',
  domain: 'acme-home.example',
  secret: 7,
  sizes: { users: 3, teams: 1, recordings: 2, calls: 5 },
  endMs: Date.parse('2026-06-01T11:00:00Z'),
};

describe('shared generated tables', () => {
  it('builds a table once per key and hands every caller the same one', () => {
    let builds = 0;
    const build = () => {
      builds++;
      return { rows: [1, 2, 3] };
    };
    const first = sharedTable('shared-tables.test one', build);
    const second = sharedTable('shared-tables.test one', build);
    const other = sharedTable('shared-tables.test two', build);
    expect(second).toBe(first);
    expect(other).not.toBe(first);
    expect(builds).toBe(2);
  });

  it('gives two companies of one spec the same generated records, and each its own changes', () => {
    const one = generateCompany(spec);
    const two = generateCompany(spec);
    // The same record object: derived once, memoised in the one table both read.
    expect(two.calls.at(0)).toBe(one.calls.at(0));
    expect(two.users.at(2)).toBe(one.users.at(2));
    const different = generateCompany({ ...spec, secret: 8 });
    expect(different.calls.at(0)).not.toBe(one.calls.at(0));
    expect(different.calls.at(0).id).not.toBe(one.calls.at(0).id);
  });

  it("keeps a session's record changes out of another session of the same seed", async () => {
    const server = createMockServer({ clock: 'frozen' });
    const one = server.sessions.create({ clock: 'frozen' });
    const two = server.sessions.create({ clock: 'frozen' });
    const first = await server.handle({
      method: 'GET',
      path: '/v1/users/',
      search: '',
      headers: { authorization: `Bearer ${one.keys.valid}` },
    });
    const id = first.drop
      ? ''
      : ((JSON.parse(first.response.body) as { data: { id: string }[] }).data[0]?.id ?? '');
    const before = server.records.get('users', id)?.first_name;
    expect(before).toMatch(/^[A-Z][a-z]+$/);
    one.records.update('users', id, { first_name: 'Changed' });
    expect(one.records.get('users', id)?.first_name).toBe('Changed');
    expect(two.records.get('users', id)?.first_name).toBe(before);
    expect(server.records.get('users', id)?.first_name).toBe(before);
  });
});
