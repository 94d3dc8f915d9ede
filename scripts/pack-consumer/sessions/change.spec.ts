// One of two test files that run at once, each in a session of its own of the run's one mock: this one
// deletes a call and moves its session's clock by a day, then keeps them so while look.spec.ts looks.
import { useMockSession } from '@company-data/mock-server/vitest';
import { expect, it } from 'vitest';
import { listCalls, signal, waitFor } from './rendezvous.js';

const session = useMockSession({ clock: 'frozen' });

it('deletes a call and moves its clock, while the other file looks', { timeout: 60_000 }, async () => {
  const before = await listCalls(session.baseURL, session.keys.valid);
  const deleted = before.data[0]?.id ?? '';
  await session.admin(`records/calls/${deleted}`, { method: 'DELETE' });
  await session.admin('clock/advance', { body: { ms: 24 * 3_600_000 } });

  const after = await listCalls(session.baseURL, session.keys.valid);
  expect(after.pagination.count).toBe(before.pagination.count - 1);
  expect(after.data.map((call) => call.id)).not.toContain(deleted);
  expect((await session.admin<{ now: string }>('')).now).toBe('2026-06-02T12:00:00.000Z');

  signal('changed', { deleted, key: session.keys.valid, id: session.id });
  await waitFor('looked');
  // Its two lists, and the other file's list with this session's key: the key routed it here.
  await session.verify({ method: 'GET', path: '/v1/calls/', key: 'valid', times: 3 });
});
