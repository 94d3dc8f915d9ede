import type { MockResponse } from './types.js';

/**
 * A response as the listener writes it: the encoded body and a flat header list with its
 * `content-length`, built once for a response answered again and again instead of once per request.
 */
export interface WireForm {
  /** The body, UTF-8. */
  readonly bytes: Buffer;
  /** `[name, value, name, value, …]`: the response's headers, then `content-length` (as one object spread would order them). */
  readonly headers: readonly string[];
}

/**
 * The seam between whoever answers the same response object many times (the page cache) and the adapter
 * that encodes it (the listener): the first marks it reusable, the second asks for its wire form, and neither
 * knows the other. `null` until an adapter first asks. Weak: a response let go takes its bytes along.
 */
const reusable = new WeakMap<MockResponse, WireForm | null>();

/**
 * Marks a response as answered again as it is (a cached page), so its wire form is built once.
 *
 * @param response - a response that will be handed out again unchanged.
 */
export function keepWireForm(response: MockResponse): void {
  if (!reusable.has(response)) reusable.set(response, null);
}

/**
 * The wire form of a response: remembered for a response marked by {@link keepWireForm}, built afresh for
 * any other.
 *
 * @param response - a response the engine answered.
 * @returns its body bytes and headers.
 */
export function wireForm(response: MockResponse): WireForm {
  const known = reusable.get(response);
  if (known) return known;
  const bytes = Buffer.from(response.body);
  const merged: Record<string, string> = { ...response.headers, 'content-length': String(bytes.length) };
  const headers: string[] = [];
  for (const name in merged) headers.push(name, merged[name] as string);
  const form: WireForm = { bytes, headers };
  if (known === null) reusable.set(response, form);
  return form;
}
