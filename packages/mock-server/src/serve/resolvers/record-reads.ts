import type { CompanyRecords } from '../../data/store/company-records.js';
import { idKey } from '../../data/store/id-key.js';
import type { ListFilter, LiveTable } from '../../data/store/live-table.js';
import type { RecordView, StoredRecord } from '../../data/store/table.js';
import { jsonText } from '../http/responses.js';
import type { Resolved } from '../http/types.js';
import { pageCacheOf } from './page-cache.js';
import type { DataResolver } from './types.js';

const identity: RecordView<unknown> = { name: 'record', project: (item) => item };
const recordingListItem: RecordView<{ custom_fields?: unknown }> = {
  name: 'list-item',
  project: ({ custom_fields: _omitted, ...item }) => item,
};

/** Shared by every unfiltered request (never written to). */
const NO_FILTERS: ListFilter[] = [];

type TableOf = (company: CompanyRecords) => LiveTable<StoredRecord>;

/** Tells the pages of each resolver apart in a company's cache (two resolvers may read one table). */
let resolvers = 0;

function list(table: TableOf, view: RecordView<never>): DataResolver {
  const operation = ++resolvers;
  return (company, _params, query, filters) => {
    const page = query.page as number;
    const pageSize = query.page_size as number;
    const ordering = query.ordering as string;
    let given: ListFilter[] = NO_FILTERS;
    for (const name of filters) {
      const value = query[name];
      if (value === undefined) continue;
      if (given === NO_FILTERS) given = [];
      given.push([name, String(value)]);
    }
    const records = table(company);
    // The page depends on nothing else: the operation, these three, the filters as given (each value
    // length-prefixed, so no value can pass for two) and the version of the list they select (which a
    // change outside that list leaves as it was).
    let key = `${operation} ${page} ${pageSize} ${ordering} ${records.version(given)}`;
    for (const name of filters) {
      const value = query[name];
      if (value === undefined) key += ' -';
      else {
        const text = String(value);
        key += ` ${text.length}:${text}`;
      }
    }
    const cache = pageCacheOf(company);
    const cached = cache.get(key);
    if (cached !== undefined) return cached;
    // Pages past the last (any page up to 2^53 − 1) are empty: no record is read.
    const first = (page - 1) * pageSize;
    const { count, items } = records.page(
      given,
      first,
      first + pageSize,
      ordering.startsWith('-'),
      view as RecordView<StoredRecord>,
    );
    const totalPages = Math.ceil(count / pageSize);
    const body = `{"data":[${items}],"pagination":{"count":${count},"page":${page},"page_size":${pageSize},"total_pages":${totalPages}}}`;
    const resolved: Resolved = { response: jsonText(200, body), outcome: 'served' };
    cache.set(key, resolved);
    return resolved;
  };
}

function retrieve(table: TableOf, render: (company: CompanyRecords, record: never) => string): DataResolver {
  const operation = ++resolvers;
  return (company, params) => {
    const id = idKey(params.id ?? '');
    const records = table(company);
    const key = `${operation} ${id} ${records.revision(id)}`;
    const cache = pageCacheOf(company);
    const cached = cache.get(key);
    if (cached !== undefined) return cached;
    // A non-uuid id simply matches nothing: 404, like an unknown id.
    const record = records.find(id);
    if (record === undefined) return undefined;
    const resolved: Resolved = {
      response: jsonText(200, `{"data":${render(company, record as never)}}`),
      outcome: 'served',
    };
    cache.set(key, resolved);
    return resolved;
  };
}

const users: TableOf = (company) => company.users;
const teams: TableOf = (company) => company.teams;
const recordings: TableOf = (company) => company.recordings;
const calls: TableOf = (company) => company.calls;
const asJson = (_company: CompanyRecords, record: unknown) => JSON.stringify(record);

/** The resolvers of the ten data endpoints. */
export const DATA_RESOLVERS = {
  listUsers: list(users, identity),
  retrieveUser: retrieve(users, asJson),
  listTeams: list(teams, identity),
  retrieveTeam: retrieve(teams, asJson),
  listRecordings: list(recordings, recordingListItem),
  retrieveRecording: retrieve(recordings, asJson),
  retrieveRecordingTranscript: retrieve(recordings, (company, record) =>
    JSON.stringify(company.recordingTranscript(record)),
  ),
  listCalls: list(calls, identity),
  retrieveCall: retrieve(calls, asJson),
  retrieveCallTranscript: retrieve(calls, (company, record) =>
    JSON.stringify(company.callTranscript(record)),
  ),
} as const satisfies Record<string, DataResolver>;
