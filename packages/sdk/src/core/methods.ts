import type { OperationId, OperationMeta } from '@company-data/contract/runtime';

/** The SDK method of each operation, as error messages name it. */
const METHOD_NAMES: Readonly<Record<OperationId, string>> = {
  listUsers: 'client.users.list()',
  retrieveUser: 'client.users.retrieve()',
  listTeams: 'client.teams.list()',
  retrieveTeam: 'client.teams.retrieve()',
  listRecordings: 'client.recordings.list()',
  retrieveRecording: 'client.recordings.retrieve()',
  retrieveRecordingTranscript: 'client.recordings.transcript()',
  listCalls: 'client.calls.list()',
  retrieveCall: 'client.calls.retrieve()',
  retrieveCallTranscript: 'client.calls.transcript()',
  addAudienceMember: 'client.audiences.addMember()',
  submitLead: 'client.leads.submit()',
};

/**
 * The SDK method that calls an endpoint, e.g. `client.calls.list()`.
 *
 * @param endpoint - a row of the endpoint table.
 * @returns the method, as messages name it.
 */
export function methodName(endpoint: Pick<OperationMeta, 'operationId'>): string {
  return METHOD_NAMES[endpoint.operationId];
}
