import { compilePath, endpointList, rootPath } from '@company-data/contract';
import { createMockServer } from '@company-data/mock-server';
import { afterAll, describe, expect, it } from 'vitest';
import { CompanyData, SDK_METHODS } from '../../src/index.js';

// SDK_METHODS is the one table of which method serves which operation. The satisfies clause in
// core/methods.ts makes an operation without a method a type error; this test makes a row that names the
// wrong method fail: calling each row's method must send that row's operation.

const mock = createMockServer({ clock: 'frozen', quota: false });
const client = new CompanyData({
  apiKey: mock.keys.valid,
  baseURL: mock.baseURL,
  dispatcher: mock.dispatcher,
});
afterAll(async () => {
  await client.close();
  await mock.close();
});

/** Arguments that make each kind of method send its request. */
async function argumentsFor(operationId: string): Promise<unknown[]> {
  const endpoint = endpointList.find((row) => row.operationId === operationId);
  if (endpoint?.kind === 'list') return [];
  if (endpoint?.kind === 'retrieve') {
    const [resource] = SDK_METHODS[operationId as keyof typeof SDK_METHODS];
    const list = client[resource as 'users' | 'teams' | 'recordings' | 'calls'].list({ page_size: 1 });
    const [first] = await list.toArray({ limit: 1 });
    return [(first as { id: string }).id];
  }
  if (operationId === 'addAudienceMember') return [mock.tokens.audience, { email: 'ada@example.com' }];
  return [mock.tokens.lead, { phone_number: '4155550100' }];
}

describe('SDK_METHODS', () => {
  it('names a method for every operation of the endpoint table, and no other', () => {
    expect(Object.keys(SDK_METHODS).sort()).toEqual(endpointList.map((row) => row.operationId).sort());
  });

  it.each(Object.entries(SDK_METHODS))('%s is sent by client.%s', async (operationId, [resource, method]) => {
    const endpoint = endpointList.find((row) => row.operationId === operationId);
    if (endpoint === undefined) throw new Error(`no row for ${operationId}`);
    const args = await argumentsFor(operationId);
    mock.clearJournal();
    const target = (client as unknown as Record<string, Record<string, (...args: unknown[]) => unknown>>)[
      resource
    ];
    await target?.[method]?.(...args);
    const sent = mock.journal();
    expect(sent).toHaveLength(1);
    expect(sent[0]?.method).toBe(endpoint.method);
    // The row's path, with the id or token the method was given in its place.
    const [given] = args;
    const params =
      endpoint.kind === 'list' ? {} : endpoint.method === 'POST' ? { webhook_token: given } : { id: given };
    expect(compilePath(rootPath(endpoint))(sent[0]?.path ?? '')).toEqual(params);
  });
});
