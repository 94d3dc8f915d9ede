/**
 * Which requests a fault, a fault rate or a latency rule applies to: a method and a path, each optional.
 *
 * @example
 * ```ts
 * const calls: RouteMatch = { method: 'GET', path: /^\/v1\/calls\// };
 * ```
 */
export interface RouteMatch {
  /** Only requests with this method (default: any). */
  readonly method?: string | undefined;
  /** Only this exact path (relative to the origin, e.g. `/v1/calls/`), or paths matching this pattern (default: any). */
  readonly path?: string | RegExp | undefined;
}

/**
 * Whether a request matches (the method compared as given: upper-case it when storing the rule).
 *
 * @param match - the rule.
 * @param method - the request's upper-case method.
 * @param path - the request's path.
 */
export function routeMatches(match: RouteMatch, method: string, path: string): boolean {
  if (match.method !== undefined && match.method !== method) return false;
  if (match.path === undefined) return true;
  if (typeof match.path === 'string') return match.path === path;
  match.path.lastIndex = 0;
  return match.path.test(path);
}
