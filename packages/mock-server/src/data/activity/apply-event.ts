import type { Call, User } from '@company-data/contract';
import { isoSeconds } from '../fake/time.js';
import type { RecordEditor } from '../record-controls/editor.js';
import type { CompanyRecords } from '../store/company-records.js';
import { idKey } from '../store/id-key.js';
import type { ListFilter } from '../store/live-table.js';
import type { RecordView } from '../store/table.js';
import type { ActivityEvent } from './schedule.js';

/**
 * Applies one activity event to a company through the record editor (the path of the record controls),
 * journaled with origin `activity` at the event's time. An event with nothing to act on is skipped: an
 * arrival in a company without users, the excusal of a call deleted (or already excused) meanwhile, a
 * deactivation when no user is active, a deletion when no call is left.
 *
 * @param editor - the one mutation path.
 * @param company - the company the activity lives in (the primary one).
 * @param event - the event.
 */
export function applyActivityEvent(
  editor: RecordEditor,
  company: CompanyRecords,
  event: ActivityEvent,
): void {
  const context = { origin: 'activity' as const, company: company.id, atMs: event.atMs };
  switch (event.kind) {
    case 'call':
    case 'recording': {
      if (company.users.size === 0) return;
      // Generated from its place in the schedule (its fields from its own id's stream, so controls a test
      // calls never shift them); the table keeps that place, not the record.
      const resource = event.kind === 'call' ? 'calls' : 'recordings';
      editor.apply({ kind: 'arrive', resource, arriving: event.arrivals, n: event.n }, context);
      return;
    }
    case 'excusal': {
      const call = company.calls.find(idKey(event.callId));
      if (call === undefined || call.is_excused) return;
      const fields = { is_excused: true, excused_at: isoSeconds(event.atMs), excuse_reason: event.reason };
      editor.apply({ kind: 'update', resource: 'calls', id: call.id, fields }, context);
      return;
    }
    case 'deactivation': {
      const id = activeUserId(company, event.pick);
      if (id === undefined) return;
      editor.apply({ kind: 'update', resource: 'users', id, fields: { is_active: false } }, context);
      return;
    }
    case 'deletion': {
      const { calls } = company;
      if (calls.size === 0) return;
      const call: Call = calls.at(Math.floor(event.pick * calls.size));
      editor.apply({ kind: 'delete', resource: 'calls', id: call.id }, context);
      return;
    }
  }
}

/** The users the `is_active=true` list holds, oldest first: read from its index, never by a scan. */
const ACTIVE: readonly ListFilter[] = [['is_active', 'true']];
const ID_VIEW: RecordView<User> = { name: 'activity-id', project: (user) => user.id };

/** The id of the active user at `pick` (a fraction in [0, 1)) of the list of active users, if any. */
function activeUserId(company: CompanyRecords, pick: number): string | undefined {
  const { users } = company;
  const { count } = users.page(ACTIVE, 0, 0, false, ID_VIEW);
  if (count === 0) return undefined;
  const rank = Math.floor(pick * count);
  return JSON.parse(users.page(ACTIVE, rank, rank + 1, false, ID_VIEW).items) as string;
}
