import { z } from 'zod';
import { LIST_LIMITS } from '../list-limits.js';
import { openObject } from './open-object.js';

/**
 * The pagination object of every list response.
 *
 * @example
 * ```ts
 * const { count, page, page_size, total_pages } = Pagination.parse(json.pagination);
 * ```
 */
export const Pagination = openObject({
  count: z.int().min(0),
  page: z.int().min(LIST_LIMITS.minPage),
  page_size: z.int().min(LIST_LIMITS.minPageSize).max(LIST_LIMITS.maxPageSize),
  total_pages: z.int().min(0),
});
/** The pagination object of every list response. */
export interface Pagination extends z.output<typeof Pagination> {}

/**
 * Builds the schema of a list response: `{ data: [item, ...], pagination }`, both keys required.
 *
 * @param item - schema of one list item.
 * @returns the list envelope schema.
 * @example
 * ```ts
 * const UserList = listEnvelope(User);
 * ```
 */
export function listEnvelope<Item extends z.ZodType>(item: Item) {
  return openObject({ data: z.array(item), pagination: Pagination });
}

/**
 * Builds the schema of a single-resource response: `{ data: resource }`.
 *
 * @param resource - schema of the resource.
 * @returns the envelope schema.
 * @example
 * ```ts
 * const UserResponse = dataEnvelope(User);
 * ```
 */
export function dataEnvelope<Resource extends z.ZodType>(resource: Resource) {
  return openObject({ data: resource });
}

/**
 * The decoded body of a list response.
 *
 * @typeParam Item - the list item type.
 */
export interface ListResponse<Item> {
  /** The items of this page. */
  data: Item[];
  /** Where this page sits in the whole result. */
  pagination: Pagination;
}
