/**
 * Load generation with autocannon, run from the figure's process while the server under test lives in
 * its own child process: the two never share an event loop.
 */
import autocannon from 'autocannon';
import { percentile } from './stats.js';

/** What one autocannon run measured. */
export interface LoadResult {
  /** Completed requests per second (total / duration). */
  rps: number;
  /** Median latency, ms. */
  p50: number;
  /** 99th percentile latency, ms. */
  p99: number;
  /** Requests completed. */
  total: number;
  /** Responses outside 2xx. */
  non2xx: number;
  /** Connection errors and timeouts. */
  errors: number;
}

/** Options of {@link load}. */
export interface LoadOptions {
  /** Target URL (127.0.0.1 only). */
  url: string;
  /** Concurrent connections. */
  connections: number;
  /** Seconds to run. */
  seconds: number;
  /** Request headers. */
  headers?: Record<string, string>;
  /** HTTP method (default GET). */
  method?: 'GET' | 'POST';
  /** Builds each request's body; called once per request sent. */
  body?: () => string;
}

/** Runs autocannon for a bounded time and summarises the result. */
export async function load(options: LoadOptions): Promise<LoadResult> {
  if (!new URL(options.url).hostname.startsWith('127.')) throw new Error('load only goes to loopback');
  const makeBody = options.body;
  // autocannon's own histogram keeps whole milliseconds; loopback latencies are often below 1 ms, so
  // keep each response's exact time (2xx only, as autocannon does) for the percentiles.
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        connections: options.connections,
        duration: options.seconds,
        method: options.method ?? 'GET',
        headers: options.headers ?? {},
        timeout: 10,
        ...(makeBody
          ? {
              requests: [
                { method: options.method ?? 'POST', setupRequest: (req) => ({ ...req, body: makeBody() }) },
              ],
            }
          : {}),
      },
      (error, finished) => (error ? reject(error) : resolve(finished)),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    });
  });
  return {
    rps: result.requests.total / result.duration,
    p50: latencies.length > 0 ? percentile(latencies, 50) : Number.NaN,
    p99: latencies.length > 0 ? percentile(latencies, 99) : Number.NaN,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}
