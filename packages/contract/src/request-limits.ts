// Limits on the request itself, before any endpoint reads it: plain values, no zod, for the runtime entry point.

/**
 * The largest request head (request line and headers) the API reads, in bytes: 16 KiB, Node's default,
 * made explicit. A larger one is answered `431 Request Header Fields Too Large`, with no body, before any
 * endpoint sees the request; the OpenAPI document lists 431 for every operation.
 *
 * @example
 * ```ts
 * import { MAX_REQUEST_HEAD_BYTES } from '@company-data/contract';
 *
 * const url = new URL('https://api.example.com/v1/calls/?page_size=100');
 * if (url.href.length > MAX_REQUEST_HEAD_BYTES / 2) console.warn('Send fewer values per request.');
 * ```
 */
export const MAX_REQUEST_HEAD_BYTES = 16 * 1024;
