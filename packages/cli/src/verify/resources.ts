import { CALL_SOURCES, type EndpointDefinition, endpoints } from '@company-data/contract';
import type { CompanyData, ListQuery } from '@company-data/sdk';

/** A query of any list endpoint, filters included. */
export type AnyListQuery = ListQuery & { is_active?: boolean; source?: (typeof CALL_SOURCES)[number] };

/** A retrieve-like endpoint (a record, or its transcript) with the SDK method that calls it. */
export interface ReadEndpoint {
  readonly endpoint: EndpointDefinition;
  readonly call: (client: CompanyData, id: string) => PromiseLike<unknown>;
}

/** One data resource as `verify` reads it: its endpoints and SDK methods, its filter if it has one. */
export interface VerifiedResource {
  readonly name: 'users' | 'teams' | 'recordings' | 'calls';
  readonly list: EndpointDefinition;
  readonly listCall: (client: CompanyData, query: AnyListQuery) => PromiseLike<unknown>;
  /** The record and, where the API has one, its transcript. */
  readonly reads: readonly ReadEndpoint[];
  /** The list filter: the query parameter, the record field it filters on, and every value. */
  readonly filter?: {
    readonly param: 'is_active' | 'source';
    readonly values: readonly (boolean | string)[];
  };
}

/** The four data resources, read through the SDK exactly as an application would. */
export const VERIFIED_RESOURCES: readonly VerifiedResource[] = [
  {
    name: 'users',
    list: endpoints.listUsers,
    listCall: (client, query) => client.users.list(query),
    reads: [{ endpoint: endpoints.retrieveUser, call: (client, id) => client.users.retrieve(id) }],
    filter: { param: 'is_active', values: [true, false] },
  },
  {
    name: 'teams',
    list: endpoints.listTeams,
    listCall: (client, query) => client.teams.list(query),
    reads: [{ endpoint: endpoints.retrieveTeam, call: (client, id) => client.teams.retrieve(id) }],
  },
  {
    name: 'recordings',
    list: endpoints.listRecordings,
    listCall: (client, query) => client.recordings.list(query),
    reads: [
      { endpoint: endpoints.retrieveRecording, call: (client, id) => client.recordings.retrieve(id) },
      {
        endpoint: endpoints.retrieveRecordingTranscript,
        call: (client, id) => client.recordings.transcript(id),
      },
    ],
  },
  {
    name: 'calls',
    list: endpoints.listCalls,
    listCall: (client, query) => client.calls.list(query),
    reads: [
      { endpoint: endpoints.retrieveCall, call: (client, id) => client.calls.retrieve(id) },
      { endpoint: endpoints.retrieveCallTranscript, call: (client, id) => client.calls.transcript(id) },
    ],
    filter: { param: 'source', values: CALL_SOURCES },
  },
];
