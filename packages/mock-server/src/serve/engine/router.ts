import { compilePath } from '@company-data/contract';

/**
 * A row a {@link Router} matches: a method and a path template. The API's operations and the admin API's
 * routes are both such rows, so the mock has one router.
 */
export interface RouterRow {
  /** The upper-case method; a `GET` row also answers `HEAD` (RFC 9110 §9.3.2). */
  readonly method: string;
  /** Path template relative to the origin, `{name}` standing for one segment, e.g. `/v1/calls/{id}/`. */
  readonly template: string;
}

/** Where a request lands among a router's rows. */
export type RouterResult<Row extends RouterRow> =
  | { readonly kind: 'match'; readonly row: Row; readonly params: Record<string, string> }
  /** Rows match the path but none the method: `allow` lists theirs, for a 405. */
  | { readonly kind: 'method'; readonly allow: string }
  | { readonly kind: 'none' };

interface Compiled<Row> {
  readonly row: Row;
  readonly match: (path: string) => Record<string, string> | undefined;
}

/**
 * Finds the row of a request among rows compiled once. Rows are bucketed by their first two path segments
 * (which must be literal), so a request tests only the few patterns of its area.
 */
export class Router<Row extends RouterRow> {
  readonly #buckets = new Map<string, Compiled<Row>[]>();

  /** @param rows - the rows, each template compiled here once. */
  constructor(rows: Iterable<Row>) {
    for (const row of rows) {
      const key = bucketOf(row.template);
      this.#buckets.set(key, [...(this.#buckets.get(key) ?? []), { row, match: compilePath(row.template) }]);
    }
  }

  /**
   * The row of a request, or the methods its path allows, or none.
   *
   * @param method - the upper-case method.
   * @param path - the path, still percent-encoded (parameters come back decoded).
   */
  find(method: string, path: string): RouterResult<Row> {
    const bucket = this.#buckets.get(bucketOf(path));
    let allow: string | undefined;
    if (bucket) {
      for (const { row, match } of bucket) {
        const params = match(path);
        if (params === undefined) continue;
        const own = row.method;
        if (own === method || (method === 'HEAD' && own === 'GET')) return { kind: 'match', row, params };
        const allowed = own === 'GET' ? 'GET, HEAD' : own;
        allow = allow === undefined ? allowed : `${allow}, ${allowed}`;
      }
    }
    return allow === undefined ? NONE : { kind: 'method', allow };
  }
}

const NONE = Object.freeze({ kind: 'none' as const });

/** A path's first two segments, e.g. `/v1/calls` of `/v1/calls/{id}/`. */
function bucketOf(path: string): string {
  const second = path.indexOf('/', 1);
  if (second < 0) return path;
  const third = path.indexOf('/', second + 1);
  return third < 0 ? path : path.slice(0, third);
}
