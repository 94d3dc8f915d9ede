import { z } from 'zod';
import { DEFAULT_ORDERING, LIST_LIMITS, ORDERINGS } from './list-limits.js';
import { CallSource } from './schemas/resources.js';

/**
 * List ordering by creation time. Closed: the spec says "one of".
 *
 * @example
 * ```ts
 * Ordering.parse('created_at');
 * ```
 */
export const Ordering = z.enum(ORDERINGS);
/** List ordering by creation time. */
export type Ordering = z.infer<typeof Ordering>;

/**
 * The query parameters every list endpoint accepts, with the spec's defaults. Strict: an unknown
 * parameter is an error, in the SDK as on the mock server (a typo such as `pagesize` must not pass).
 *
 * @example
 * ```ts
 * ListQuery.parse({}); // { ordering: '-created_at', page: 1, page_size: 25 }
 * ```
 */
export const ListQuery = z.strictObject({
  ordering: Ordering.default(DEFAULT_ORDERING).describe("Sort by creation time; '-' means descending."),
  page: z.int().min(LIST_LIMITS.minPage).default(LIST_LIMITS.defaultPage).describe('Page number, from 1.'),
  page_size: z
    .int()
    .min(LIST_LIMITS.minPageSize)
    .max(LIST_LIMITS.maxPageSize)
    .default(LIST_LIMITS.defaultPageSize)
    .describe('Items per page, 1 to 100.'),
});
/** The query parameters every list endpoint accepts (all optional on input). */
export type ListQuery = z.input<typeof ListQuery>;

/**
 * Query parameters of `GET /users/`: the list parameters plus `is_active`.
 *
 * @example
 * ```ts
 * UserListQuery.parse({ is_active: true });
 * ```
 */
export const UserListQuery = ListQuery.extend({
  is_active: z.boolean().optional().describe('Only users whose active status equals this.'),
});
/** Query parameters of `GET /users/`. */
export type UserListQuery = z.input<typeof UserListQuery>;

/**
 * Query parameters of `GET /calls/`: the list parameters plus `source`.
 *
 * @example
 * ```ts
 * CallListQuery.parse({ source: 'voice_agent', page_size: 100 });
 * ```
 */
export const CallListQuery = ListQuery.extend({
  source: CallSource.optional().describe('Only calls from this source.'),
});
/** Query parameters of `GET /calls/`. */
export type CallListQuery = z.input<typeof CallListQuery>;
