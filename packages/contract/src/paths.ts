import type { EndpointDefinition } from './endpoints.js';

/** The version segment that ends `{base_url}`. */
export const API_VERSION_PREFIX = '/v1';

/**
 * `{base_url}` of an API root: the root followed by the version segment.
 *
 * @param apiRoot - e.g. `http://127.0.0.1:4010`.
 * @returns e.g. `http://127.0.0.1:4010/v1`.
 * @example
 * ```ts
 * baseUrlOf('https://api.example.com'); // 'https://api.example.com/v1'
 * ```
 */
export function baseUrlOf(apiRoot: string): string {
  return `${apiRoot}${API_VERSION_PREFIX}`;
}

/**
 * `{api_root}` of a base URL: the same address without its trailing `/v1` (unchanged when it has none).
 *
 * @param baseURL - e.g. `https://api.example.com/v1`.
 * @returns e.g. `https://api.example.com`.
 * @example
 * ```ts
 * apiRootOf('https://api.example.com/v1'); // 'https://api.example.com'
 * ```
 */
export function apiRootOf(baseURL: string): string {
  return baseURL.endsWith(API_VERSION_PREFIX) ? baseURL.slice(0, -API_VERSION_PREFIX.length) : baseURL;
}

/**
 * The base URL a near-miss most likely meant, for the fix a refusal suggests: the same origin, the path
 * cut just after its `/v1` segment (or `/v1` added when it has none), without query string or fragment.
 *
 * @param url - a URL that is not quite a base URL, e.g. `https://api.example.com/v1/users/?x=1`.
 * @returns e.g. `https://api.example.com/v1`.
 * @example
 * ```ts
 * baseUrlNear(new URL('https://api.example.com/v1?tenant=acme')); // 'https://api.example.com/v1'
 * baseUrlNear(new URL('http://127.0.0.1:4010')); // 'http://127.0.0.1:4010/v1'
 * ```
 */
export function baseUrlNear(url: URL): string {
  const path = url.pathname.replace(/\/+$/, '');
  const cut = `${path}/`.indexOf(`${API_VERSION_PREFIX}/`);
  return `${url.origin}${cut >= 0 ? path.slice(0, cut + API_VERSION_PREFIX.length) : `${path}${API_VERSION_PREFIX}`}`;
}

/**
 * Whether a host name is this machine's loopback (`localhost`, `127.x.x.x`, `::1`): where a mock server,
 * not a remote API, is expected to listen.
 *
 * @param hostname - a URL's `hostname` (IPv6 in brackets or not).
 * @returns true for a loopback host.
 * @example
 * ```ts
 * isLoopbackHost(new URL('http://127.0.0.1:4010/v1').hostname); // true
 * ```
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return (
    host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host)
  );
}

/**
 * The full path of an endpoint below `{api_root}`: data endpoints and the audience webhook sit
 * under `/v1`, the lead webhook does not.
 *
 * @param endpoint - a row of the endpoint table.
 * @returns e.g. `/v1/users/{id}/` or `/messaging-agent/webhook/{webhook_token}/`.
 * @example
 * ```ts
 * rootPath(endpoints.submitLead); // '/messaging-agent/webhook/{webhook_token}/'
 * ```
 */
export function rootPath(endpoint: Pick<EndpointDefinition, 'base' | 'path'>): string {
  return endpoint.base === 'baseURL' ? `${API_VERSION_PREFIX}${endpoint.path}` : endpoint.path;
}

const PLACEHOLDER = /\{(\w+)\}/g;

/**
 * Names the `{placeholders}` of a path template, in order.
 *
 * @param template - e.g. `/calls/{id}/transcript/`.
 * @returns e.g. `['id']`.
 * @example
 * ```ts
 * pathParamNames('/users/{id}/'); // ['id']
 * ```
 */
export function pathParamNames(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((match) => match[1] as string);
}

/**
 * Fills a path template, percent-encoding each value.
 *
 * @param template - e.g. `/users/{id}/`.
 * @param params - a value for every placeholder.
 * @returns the filled path.
 * @throws Error when a placeholder has no value.
 * @example
 * ```ts
 * fillPath('/users/{id}/', { id: 'abc' }); // '/users/abc/'
 * ```
 */
export function fillPath(template: string, params: Readonly<Record<string, string>>): string {
  const parts = templateParts(template);
  let path = parts[0] as string;
  for (let index = 1; index < parts.length; index += 2) {
    const name = parts[index] as string;
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter "${name}" for ${template}`);
    path += encodeURIComponent(value) + (parts[index + 1] as string);
  }
  return path;
}

/** The templates split so far: an SDK call fills one on every request (a callback `replace` costs ~1 µs). */
const SPLIT_TEMPLATES = new Map<string, readonly string[]>();
/** Enough for every template of the endpoint table; others are split each time. */
const MAX_SPLIT_TEMPLATES = 64;

/** A template's literals and placeholder names in turn: `/users/{id}/` → `['/users/', 'id', '/']`. */
function templateParts(template: string): readonly string[] {
  const known = SPLIT_TEMPLATES.get(template);
  if (known !== undefined) return known;
  const parts = template.split(PLACEHOLDER);
  if (SPLIT_TEMPLATES.size < MAX_SPLIT_TEMPLATES) SPLIT_TEMPLATES.set(template, parts);
  return parts;
}

/**
 * Compiles a path template into a matcher for incoming paths.
 *
 * @param template - e.g. `/users/{id}/`.
 * @returns a function giving the decoded parameters, or `undefined` when the path does not match.
 * @example
 * ```ts
 * compilePath('/users/{id}/')('/users/42/'); // { id: '42' }
 * ```
 */
export function compilePath(template: string): (path: string) => Record<string, string> | undefined {
  const names = pathParamNames(template);
  const source = template
    .split(PLACEHOLDER)
    .map((part, index) => (index % 2 === 1 ? '([^/]+)' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
    .join('');
  const pattern = new RegExp(`^${source}$`);
  return (path) => {
    const match = pattern.exec(path);
    if (!match) return undefined;
    const params: Record<string, string> = {};
    names.forEach((name, index) => {
      params[name] = decodeSegment(match[index + 1] as string);
    });
    return params;
  };
}

/**
 * Percent-decodes a path segment; a malformed escape leaves the segment as it is (it then matches no id
 * or token, rather than throwing).
 *
 * @param segment - e.g. `a%20b`.
 * @returns e.g. `a b`.
 * @example
 * ```ts
 * decodeSegment('%E0%A4%A'); // '%E0%A4%A'
 * ```
 */
export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
