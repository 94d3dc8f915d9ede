// The limits and orderings of list endpoints: plain values, no zod, so the runtime entry point can share them.

/** Limits of list endpoints, from the spec. */
export const LIST_LIMITS = {
  defaultPage: 1,
  minPage: 1,
  defaultPageSize: 25,
  minPageSize: 1,
  maxPageSize: 100,
} as const;

/** The accepted `ordering` values; `-` means descending. */
export const ORDERINGS = ['created_at', '-created_at'] as const;

/**
 * The ordering of a list whose request names none: newest first.
 *
 * @example
 * ```ts
 * const descending = (params.ordering ?? DEFAULT_ORDERING).startsWith('-');
 * ```
 */
export const DEFAULT_ORDERING = '-created_at' satisfies (typeof ORDERINGS)[number];
