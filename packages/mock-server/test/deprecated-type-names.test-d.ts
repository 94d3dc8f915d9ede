import { expectTypeOf, test } from 'vitest';
import type { AbortSource, ClientAbort, RecordByResource, RecordOf } from '../src/index.js';

test('the old names of ClientAbort and RecordByResource still name them', () => {
  expectTypeOf<AbortSource>().toEqualTypeOf<ClientAbort>();
  expectTypeOf<RecordOf>().toEqualTypeOf<RecordByResource>();
  expectTypeOf<RecordByResource['calls']['id']>().toEqualTypeOf<string>();
});
