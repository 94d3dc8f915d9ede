import { CALL_SOURCES, type OperationId } from '@company-data/contract';
import {
  enumFilter,
  IS_ACTIVE_FILTER,
  type ListFilter,
  parseListQuery,
  rejectAnyQuery,
} from '../http/query.js';
import { COMMON, jsonText, nestedError } from '../http/responses.js';
import type { Resolved } from '../http/types.js';
import type { CompanyData } from '../store/company.js';
import type { RecordTable, RecordView } from '../store/table.js';

/** A data endpoint's resolver, run after authentication, permission and throttle checks. */
export type DataResolver = (company: CompanyData, params: Record<string, string>, search: string) => Resolved;

const identity: RecordView<unknown> = { name: 'record', project: (item) => item };
const recordingListItem: RecordView<{ custom_fields?: unknown }> = {
  name: 'list-item',
  project: ({ custom_fields: _omitted, ...item }) => item,
};

type TableOf = (company: CompanyData) => RecordTable<unknown>;

function list(table: TableOf, view: RecordView<never>, filters: readonly ListFilter[] = []): DataResolver {
  return (company, _params, search) => {
    const query = parseListQuery(search, filters);
    if (typeof query === 'string') return nestedError(400, query);
    const records = table(company);
    const index = query.filter ? records.positions(query.filter[0], query.filter[1]) : undefined;
    const count = index ? index.length : records.size;
    const totalPages = Math.ceil(count / query.pageSize);
    const first = (query.page - 1) * query.pageSize;
    const last = Math.min(count, first + query.pageSize);
    let body = '{"data":[';
    for (let rank = first; rank < last; rank++) {
      // Ascending order reads the index forwards, descending backwards: no sort per request.
      const slot = query.descending ? count - 1 - rank : rank;
      const position = index ? (index[slot] as number) : slot;
      if (rank > first) body += ',';
      body += records.json(position, view as RecordView<unknown>);
    }
    body += `],"pagination":{"count":${count},"page":${query.page},"page_size":${query.pageSize},"total_pages":${totalPages}}}`;
    return { response: jsonText(200, body), outcome: 'served' };
  };
}

function retrieve(table: TableOf, render: (company: CompanyData, record: never) => string): DataResolver {
  return (company, params, search) => {
    const unknown = rejectAnyQuery(search);
    if (unknown !== undefined) return nestedError(400, unknown);
    // A non-uuid id simply matches nothing: 404, like an unknown id.
    const record = table(company).find((params.id ?? '').toLowerCase());
    if (record === undefined) return COMMON.notFound;
    return { response: jsonText(200, `{"data":${render(company, record as never)}}`), outcome: 'served' };
  };
}

const users: TableOf = (company) => company.users;
const teams: TableOf = (company) => company.teams;
const recordings: TableOf = (company) => company.recordings;
const calls: TableOf = (company) => company.calls;
const asJson = (_company: CompanyData, record: unknown) => JSON.stringify(record);

/** The resolvers of the ten data endpoints, by operation. */
export const DATA_RESOLVERS: Partial<Record<OperationId, DataResolver>> = {
  listUsers: list(users, identity, [IS_ACTIVE_FILTER]),
  retrieveUser: retrieve(users, asJson),
  listTeams: list(teams, identity),
  retrieveTeam: retrieve(teams, asJson),
  listRecordings: list(recordings, recordingListItem),
  retrieveRecording: retrieve(recordings, asJson),
  retrieveRecordingTranscript: retrieve(recordings, (company, record) =>
    JSON.stringify(company.recordingTranscript(record)),
  ),
  listCalls: list(calls, identity, [enumFilter('source', CALL_SOURCES)]),
  retrieveCall: retrieve(calls, asJson),
  retrieveCallTranscript: retrieve(calls, (company, record) =>
    JSON.stringify(company.callTranscript(record)),
  ),
};
