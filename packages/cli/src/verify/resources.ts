import { CALL_SOURCES, type EndpointDefinition, type Endpoints, endpoints } from '@company-data/contract';
import { type CompanyData, type ListQuery, SDK_METHODS } from '@company-data/sdk';

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

/** A method of the SDK by its operation, from the SDK's own table of which method serves which. */
function sdkMethod(
  operationId: keyof Endpoints,
): (client: CompanyData, ...args: never[]) => PromiseLike<unknown> {
  const [resource, method] = SDK_METHODS[operationId];
  return (client, ...args) => {
    const target = client[resource] as unknown as Record<
      string,
      (...args: unknown[]) => PromiseLike<unknown>
    >;
    return (target[method] as (...args: unknown[]) => PromiseLike<unknown>).apply(target, args);
  };
}

/** A read of one record (or its transcript) by id: its row of the endpoint table and its SDK method. */
function read(operationId: keyof Endpoints): ReadEndpoint {
  return { endpoint: endpoints[operationId], call: sdkMethod(operationId) as ReadEndpoint['call'] };
}

/** A list: its row of the endpoint table and its SDK method. */
function listed(operationId: keyof Endpoints): Pick<VerifiedResource, 'list' | 'listCall'> {
  return { list: endpoints[operationId], listCall: sdkMethod(operationId) as VerifiedResource['listCall'] };
}

/** The four data resources, read through the SDK exactly as an application would. */
export const VERIFIED_RESOURCES: readonly VerifiedResource[] = [
  {
    name: 'users',
    ...listed('listUsers'),
    reads: [read('retrieveUser')],
    filter: { param: 'is_active', values: [true, false] },
  },
  {
    name: 'teams',
    ...listed('listTeams'),
    reads: [read('retrieveTeam')],
  },
  {
    name: 'recordings',
    ...listed('listRecordings'),
    reads: [read('retrieveRecording'), read('retrieveRecordingTranscript')],
  },
  {
    name: 'calls',
    ...listed('listCalls'),
    reads: [read('retrieveCall'), read('retrieveCallTranscript')],
    filter: { param: 'source', values: CALL_SOURCES },
  },
];
