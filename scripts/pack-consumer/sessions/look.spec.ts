// The other of the two test files that run at once: while change.spec.ts holds a deleted call and a clock a
// day ahead in its session, this one's session sees neither; the other file's key, sent here, reaches the
// other session (the key is what routes a request to its session).
import { useMockSession } from '@company-data/mock-server/vitest';
import { expect, it } from 'vitest';
import { listCalls, signal, waitFor } from './rendezvous.js';

const session = useMockSession({ clock: 'frozen' });

it("sees neither the other file's deleted call nor its clock", { timeout: 60_000 }, async () => {
  const other = await waitFor<{ deleted: string; key: string; id: string }>('changed');
  expect(other.id).not.toBe(session.id);
  expect(other.key).not.toBe(session.keys.valid);

  const mine = await listCalls(session.baseURL, session.keys.valid);
  expect(mine.pagination.count).toBe(240);
  expect(mine.data.map((call) => call.id)).toContain(other.deleted);
  expect((await session.admin<{ now: string }>('')).now).toBe('2026-06-01T12:00:00.000Z');

  const theirs = await listCalls(session.baseURL, other.key);
  expect(theirs.data.map((call) => call.id)).not.toContain(other.deleted);
  signal('looked', { id: session.id });
  await session.verify({ method: 'GET', path: '/v1/calls/', times: 1 }); // not the request with the other's key
});
