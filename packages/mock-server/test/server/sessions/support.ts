import { request } from 'undici';

// biome-ignore lint/suspicious/noExplicitAny: tests read JSON bodies loosely.
export type Loose = any;

/**
 * One request with a Bearer token, as a client in any language sends it: its status and its JSON body.
 *
 * @param init - the method (GET by default) and a JSON body.
 */
export async function call(url: string, token: string, init: { method?: string; body?: unknown } = {}) {
  const response = await request(url, {
    method: (init.method ?? 'GET') as 'GET',
    headers: {
      authorization: `Bearer ${token}`,
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.body.text();
  return { status: response.statusCode, json: (text ? JSON.parse(text) : undefined) as Loose };
}
