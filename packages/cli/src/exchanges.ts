import type { FetchLike } from '@company-data/sdk';

/** One HTTP exchange the tool made through the SDK: what was asked, and what came back. */
export interface Exchange {
  /** `GET` or `POST`. */
  readonly method: string;
  /** Path and query, e.g. `/v1/calls/?page=2&page_size=25` (no origin, so reports stay short). */
  readonly target: string;
  /** HTTP status. */
  readonly status: number;
  /** Response headers, lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The raw response body. */
  readonly body: string;
}

/**
 * Counts the requests the SDK sends and keeps what a report needs: the last exchange (its method, path and
 * query, which the SDK's results do not carry, and its raw body) and every 429. Handed to the SDK as its
 * `fetch` option, so every attempt is seen, retries and throttled ones included.
 */
export class ExchangeLog {
  /** Requests sent, every attempt counted. */
  requests = 0;
  /** Every 429 answer met. */
  readonly throttled: Exchange[] = [];
  /** The exchange of the latest request; `undefined` while it is in flight or when it got no answer. */
  last: Exchange | undefined;

  /** The `fetch` to give the SDK. */
  readonly fetch: FetchLike = async (url, init) => {
    this.requests++;
    this.last = undefined;
    const response = await globalThis.fetch(url, init);
    const body = await response.text();
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const { pathname, search } = new URL(url);
    const exchange: Exchange = {
      method: init.method,
      target: `${pathname}${search}`,
      status: response.status,
      headers,
      body,
    };
    this.last = exchange;
    if (response.status === 429) this.throttled.push(exchange);
    return { status: response.status, headers: response.headers, text: async () => body };
  };
}
