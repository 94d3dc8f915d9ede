import type { CompanyData } from '@company-data/sdk';

/**
 * The lists a copy can take: every list of the API, each with `sync()`.
 *
 * @example
 * ```ts
 * COPY_LISTS.includes('calls'); // true
 * ```
 */
export const COPY_LISTS = ['calls', 'users', 'teams', 'recordings'] as const;

/**
 * One of {@link COPY_LISTS}.
 *
 * @example
 * ```ts
 * const list: CopyListName = 'calls';
 * ```
 */
export type CopyListName = (typeof COPY_LISTS)[number];

/** Whether `name` is one of {@link COPY_LISTS}. */
export function isCopyList(name: string): name is CopyListName {
  return (COPY_LISTS as readonly string[]).includes(name);
}

/** The list's resource of `client` (each has `list()` and `sync()`). */
export function resourceOf(client: CompanyData, list: CopyListName) {
  return client[list];
}
