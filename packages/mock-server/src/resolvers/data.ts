import { jsonText } from '../http/responses.js';
import type { Resolved } from '../http/types.js';
import type { CompanyData } from '../store/company.js';
import { idKey } from '../store/id-key.js';
import type { PositionIndex, RecordTable, RecordView } from '../store/table.js';
import { pageCacheOf } from './page-cache.js';
import type { DataResolver } from './types.js';

const identity: RecordView<unknown> = { name: 'record', project: (item) => item };
const recordingListItem: RecordView<{ custom_fields?: unknown }> = {
  name: 'list-item',
  project: ({ custom_fields: _omitted, ...item }) => item,
};

type TableOf = (company: CompanyData) => RecordTable<unknown>;

/** Tells the pages of each resolver apart in a company's cache (two resolvers may read one table). */
let resolvers = 0;

function list(table: TableOf, view: RecordView<never>): DataResolver {
  const operation = ++resolvers;
  return (company, _params, query, filters) => {
    const page = query.page as number;
    const pageSize = query.page_size as number;
    const ordering = query.ordering as string;
    // The page depends on nothing else: the operation, these three and the filters as `filtered` reads them
    // (each value length-prefixed, so no value can pass for two).
    let key = `${operation} ${page} ${pageSize} ${ordering}`;
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
    const descending = ordering.startsWith('-');
    const records = table(company);
    const index = filtered(records, query, filters);
    const count = index ? index.length : records.size;
    const totalPages = Math.ceil(count / pageSize);
    // Pages past the last (any page up to 2^53 − 1) are empty: the loop below does not run.
    const first = (page - 1) * pageSize;
    const last = Math.min(count, first + pageSize);
    let body = '{"data":[';
    for (let rank = first; rank < last; rank++) {
      // Ascending order reads the index forwards, descending backwards: no sort per request.
      const slot = descending ? count - 1 - rank : rank;
      const position = index ? (index[slot] as number) : slot;
      if (rank > first) body += ',';
      body += records.json(position, view as RecordView<unknown>);
    }
    body += `],"pagination":{"count":${count},"page":${page},"page_size":${pageSize},"total_pages":${totalPages}}}`;
    const resolved: Resolved = { response: jsonText(200, body), outcome: 'served' };
    cache.set(key, resolved);
    return resolved;
  };
}

/** The positions matching every filter given (a record's field equals the value), or undefined for none. */
function filtered(
  records: RecordTable<unknown>,
  query: Readonly<Record<string, unknown>>,
  filters: readonly string[],
): PositionIndex | undefined {
  let index: PositionIndex | undefined;
  for (const name of filters) {
    const value = query[name];
    if (value === undefined) continue;
    const matching = records.positions(name, String(value));
    index = index === undefined ? matching : intersect(index, matching);
  }
  return index;
}

/** Positions in both ascending indexes. */
function intersect(a: PositionIndex, b: PositionIndex): PositionIndex {
  const both: number[] = [];
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    const x = a[i] as number;
    const y = b[j] as number;
    if (x === y) both.push(x);
    if (x <= y) i++;
    if (y <= x) j++;
  }
  return both;
}

function retrieve(table: TableOf, render: (company: CompanyData, record: never) => string): DataResolver {
  const operation = ++resolvers;
  return (company, params) => {
    const id = idKey(params.id ?? '');
    const key = `${operation} ${id}`;
    const cache = pageCacheOf(company);
    const cached = cache.get(key);
    if (cached !== undefined) return cached;
    // A non-uuid id simply matches nothing: 404, like an unknown id.
    const record = table(company).find(id);
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
const asJson = (_company: CompanyData, record: unknown) => JSON.stringify(record);

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
