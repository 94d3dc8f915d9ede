import { buildOpenApiDocument } from '@company-data/contract';
import type { SideRoute } from './engine/engine.js';
import { json, methodNotAllowed } from './http/responses.js';
import type { MockResponse } from './http/types.js';

/**
 * Where every mock server serves the API's OpenAPI 3.1 document, relative to its `apiRoot`
 * (`http://127.0.0.1:4010/openapi.json`), with `servers` set to the running address so tools such
 * as Schemathesis, openapi-typescript or Postman can be pointed straight at it. Not journaled, not
 * throttled, no key needed.
 *
 * @example
 * ```ts
 * const document = await (await fetch(`${server.apiRoot}${OPENAPI_PATH}`)).json();
 * ```
 */
export const OPENAPI_PATH = '/openapi.json';

/**
 * The contract's OpenAPI document with `servers` pointing at one running mock.
 *
 * @param apiRoot - the mock's API root, e.g. `http://127.0.0.1:4010`.
 * @returns the 200 response.
 */
export function openApiResponse(apiRoot: string): MockResponse {
  const document = {
    ...buildOpenApiDocument(),
    servers: [{ url: apiRoot, description: 'This Company Data mock server.' }],
  };
  return json(200, document);
}

/**
 * The route serving the OpenAPI document at {@link OPENAPI_PATH}, beside the API (never journaled,
 * never faulted), built on first request: by then a listener knows its port.
 *
 * @param apiRoot - the mock's API root once known.
 * @returns the route the server hands the engine.
 */
export function openApiRoute(apiRoot: () => string): SideRoute {
  let document: MockResponse | undefined;
  return {
    outcome: 'openapi',
    matches: (path) => path === OPENAPI_PATH,
    answer: (request) => {
      if (request.method !== 'GET') return methodNotAllowed('nested', request.method, 'GET').response;
      document ??= openApiResponse(apiRoot());
      return document;
    },
  };
}
