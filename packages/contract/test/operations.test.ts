import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { OPERATIONS, type OperationId as RuntimeOperationId } from '../src/compiled/operations.generated.js';
import { endpointList, type OperationId } from '../src/index.js';

const names = (schema: z.ZodType | undefined) =>
  schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];

describe('the schema-free endpoint table (runtime entry)', () => {
  it('has one row per operation of the endpoint table, equal to it field by field', () => {
    expect(Object.keys(OPERATIONS)).toEqual(endpointList.map((endpoint) => endpoint.operationId));
    const schemaOf = { pathParamNames: 'pathParams', queryNames: 'query', bodyNames: 'body' } as const;
    for (const endpoint of endpointList) {
      const row: Record<string, unknown> = OPERATIONS[endpoint.operationId as OperationId];
      for (const [field, value] of Object.entries(row)) {
        const expected =
          field in schemaOf
            ? names(endpoint[schemaOf[field as keyof typeof schemaOf]])
            : endpoint[field as keyof typeof endpoint];
        expect(value, `${endpoint.operationId}.${field}`).toEqual(expected);
      }
      // What a client needs to send the operation is all there; only schemas and the documentation of
      // statuses are left out.
      const omitted = Object.keys(endpoint).filter((field) => !(field in row));
      expect(omitted.sort()).toEqual(
        ['body', 'errors', 'pathParams', 'query', 'response', 'specErrors', 'statusText'].filter(
          (field) => field in endpoint,
        ),
      );
    }
  });

  it('names the same operations in its types', () => {
    expectTypeOf<RuntimeOperationId>().toEqualTypeOf<OperationId>();
  });
});
