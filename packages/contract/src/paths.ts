/** The version segment that ends `{base_url}`. */
export const API_VERSION_PREFIX = '/v1';

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
  return template.replace(PLACEHOLDER, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter "${name}" for ${template}`);
    return encodeURIComponent(value);
  });
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
      params[name] = safeDecode(match[index + 1] as string);
    });
    return params;
  };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
