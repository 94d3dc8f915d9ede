import { LIST_LIMITS, ORDERINGS } from '@company-data/contract';

/** A filter a list endpoint accepts: its query name, the table facet it reads, and its value parser. */
export interface ListFilter {
  /** Query parameter name, e.g. `is_active`. */
  readonly param: string;
  /** Parses a raw value into the facet value, or `undefined` when invalid. */
  parse(raw: string): string | undefined;
  /** What a valid value looks like, for the error text. */
  readonly expected: string;
}

/** A validated list query. */
export interface ParsedListQuery {
  /** Page number, from 1. */
  readonly page: number;
  /** Items per page. */
  readonly pageSize: number;
  /** Newest first. */
  readonly descending: boolean;
  /** The active filter (facet, value), if any. */
  readonly filter?: readonly [facet: string, value: string] | undefined;
}

const INTEGER = /^[0-9]{1,9}$/;

/**
 * Reads the query string of a list request. Nothing is clamped: an invalid value, an unknown or a
 * repeated parameter is an error naming the parameter, so client bugs surface against the mock.
 *
 * @returns the parsed query, or the error detail.
 */
export function parseListQuery(search: string, filters: readonly ListFilter[]): ParsedListQuery | string {
  let page: number = LIST_LIMITS.defaultPage;
  let pageSize: number = LIST_LIMITS.defaultPageSize;
  let descending = true;
  let filter: readonly [string, string] | undefined;
  if (search === '') return { page, pageSize, descending };
  const seen = new Set<string>();
  for (const [name, value] of new URLSearchParams(search)) {
    if (seen.has(name)) return `Query parameter "${name}" was given more than once.`;
    seen.add(name);
    switch (name) {
      case 'page':
        if (!INTEGER.test(value) || Number(value) < LIST_LIMITS.minPage)
          return `Invalid page "${value}": expected an integer of at least ${LIST_LIMITS.minPage}.`;
        page = Number(value);
        break;
      case 'page_size':
        if (
          !INTEGER.test(value) ||
          Number(value) < LIST_LIMITS.minPageSize ||
          Number(value) > LIST_LIMITS.maxPageSize
        )
          return `Invalid page_size "${value}": expected an integer from ${LIST_LIMITS.minPageSize} to ${LIST_LIMITS.maxPageSize}.`;
        pageSize = Number(value);
        break;
      case 'ordering':
        if (!(ORDERINGS as readonly string[]).includes(value))
          return `Invalid ordering "${value}": expected one of ${ORDERINGS.join(', ')}.`;
        descending = value.startsWith('-');
        break;
      default: {
        const known = filters.find((candidate) => candidate.param === name);
        if (!known) return unknownParameter(name);
        const parsed = known.parse(value);
        if (parsed === undefined) return `Invalid ${name} "${value}": expected ${known.expected}.`;
        filter = [name, parsed];
      }
    }
  }
  return { page, pageSize, descending, filter };
}

/**
 * Checks that a retrieve request carries no query parameters.
 *
 * @returns the error detail, or `undefined` when the query is empty.
 */
export function rejectAnyQuery(search: string): string | undefined {
  if (search === '') return undefined;
  for (const [name] of new URLSearchParams(search)) return unknownParameter(name);
  return undefined;
}

function unknownParameter(name: string): string {
  return `Unknown query parameter "${name}".`;
}

/** `is_active`: true/false (also True/False/1/0, as the API's filter library accepts). */
export const IS_ACTIVE_FILTER: ListFilter = {
  param: 'is_active',
  expected: 'true or false',
  parse: (raw) => {
    switch (raw) {
      case 'true':
      case 'True':
      case '1':
        return 'true';
      case 'false':
      case 'False':
      case '0':
        return 'false';
      default:
        return undefined;
    }
  },
};

/**
 * A filter accepting exactly the listed values.
 *
 * @returns the filter.
 */
export function enumFilter(param: string, values: readonly string[]): ListFilter {
  return {
    param,
    expected: `one of ${values.join(', ')}`,
    parse: (raw) => (values.includes(raw) ? raw : undefined),
  };
}
