import type { Endpoints } from '@company-data/contract';
import { expectTypeOf, test } from 'vitest';
import { RESOLVERS } from '../../../src/serve/resolvers/resolver-table.js';
import type { DataResolver, ResolverTable, WebhookResolver } from '../../../src/serve/resolvers/types.js';

test('every row of the endpoint table has a resolver of the kind its auth calls for', () => {
  expectTypeOf(RESOLVERS).toEqualTypeOf<ResolverTable<Endpoints>>();
  expectTypeOf(RESOLVERS.listCalls).toEqualTypeOf<DataResolver>();
  expectTypeOf(RESOLVERS.submitLead).toEqualTypeOf<WebhookResolver>();
});

test('a row added to the endpoint table without a resolver does not compile', () => {
  type Grown = Endpoints & { exportCalls: Endpoints['listCalls'] };
  // @ts-expect-error: exportCalls has no resolver
  const grown: ResolverTable<Grown> = RESOLVERS;
  expectTypeOf(grown).not.toBeAny();
});

test('a webhook resolver cannot stand in for a data endpoint', () => {
  // @ts-expect-error: listUsers needs a DataResolver
  const swapped: ResolverTable<Endpoints> = { ...RESOLVERS, listUsers: RESOLVERS.submitLead };
  expectTypeOf(swapped).not.toBeAny();
});
