import type { OperationId, OperationMeta } from '@company-data/contract/runtime';

/** The resources of a client, as `client.<resource>` names them. */
export type ResourceName = 'users' | 'teams' | 'recordings' | 'calls' | 'audiences' | 'leads';

/**
 * The SDK method that serves each operation of the endpoint table: `[resource, method]`, i.e.
 * `client[resource][method]`. The one home of this mapping: the SDK's messages name methods from it, and
 * tools that drive the SDK by operation (the `company-data verify` command) read it. Typed against the
 * contract's operations, so an operation added to the endpoint table without a method here fails to
 * compile.
 *
 * @example
 * ```ts
 * import { SDK_METHODS } from '@company-data/sdk';
 *
 * const [resource, method] = SDK_METHODS.listCalls; // ['calls', 'list']
 * console.log(`client.${resource}.${method}()`);
 * ```
 */
export const SDK_METHODS = {
  listUsers: ['users', 'list'],
  retrieveUser: ['users', 'retrieve'],
  listTeams: ['teams', 'list'],
  retrieveTeam: ['teams', 'retrieve'],
  listRecordings: ['recordings', 'list'],
  retrieveRecording: ['recordings', 'retrieve'],
  retrieveRecordingTranscript: ['recordings', 'transcript'],
  listCalls: ['calls', 'list'],
  retrieveCall: ['calls', 'retrieve'],
  retrieveCallTranscript: ['calls', 'transcript'],
  addAudienceMember: ['audiences', 'addMember'],
  submitLead: ['leads', 'submit'],
} as const satisfies Readonly<Record<OperationId, readonly [ResourceName, string]>>;

/**
 * The SDK method that calls an endpoint, as messages name it, e.g. `client.calls.list()`.
 *
 * @param endpoint - a row of the endpoint table.
 * @param method - another method of the same resource built on the endpoint (`sync` rides on `list`).
 * @returns the method, as messages name it.
 */
export function methodName(endpoint: Pick<OperationMeta, 'operationId'>, method?: string): string {
  const [resource, own] = SDK_METHODS[endpoint.operationId];
  return `client.${resource}.${method ?? own}()`;
}
