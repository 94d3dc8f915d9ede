import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { OPERATIONS, type OperationId as RuntimeOperationId } from '../src/compiled/operations.generated.js';
import { endpointList, type OperationId } from '../src/index.js';

const names = (schema: z.ZodType | undefined) =>
  schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];

describe('the schema-free endpoint table (runtime entry)', () => {
  it('has one row per operation of the endpoint table, equal to it field by field', () => {
    expect(Object.keys(OPERATIONS)).toEqual(endpointList.map((endpoint) => endpoint.operationId));
    for (const endpoint of endpointList) {
      const row = OPERATIONS[endpoint.operationId as OperationId];
      expect(row).toEqual({
        operationId: endpoint.operationId,
        summary: endpoint.summary,
        method: endpoint.method,
        path: endpoint.path,
        base: endpoint.base,
        auth: endpoint.auth,
        kind: endpoint.kind,
        ...(endpoint.resource === undefined ? {} : { resource: endpoint.resource }),
        successStatuses: endpoint.successStatuses,
        errorShape: endpoint.errorShape,
        pathParamNames: names(endpoint.pathParams),
        queryNames: names(endpoint.query),
        bodyNames: names(endpoint.body),
      });
    }
  });

  it('names the same operations in its types', () => {
    expectTypeOf<RuntimeOperationId>().toEqualTypeOf<OperationId>();
  });
});
