import type { MockRequest } from './types.js';

/** The JSON body of a webhook, or why it cannot be read (status and message). */
export type BodyResult =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly status: 400 | 413 | 415; readonly message: string };

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads a webhook's JSON body: refuses oversize bodies (413), content types other than JSON (415)
 * and malformed JSON (400). An empty body reads as `{}`, as the API's JSON parser does.
 *
 * @param request - the request.
 * @param maxBodyBytes - the size limit, for the 413 text.
 */
export function readJsonBody(request: MockRequest, maxBodyBytes: number): BodyResult {
  if (request.bodyTooLarge) {
    return { ok: false, status: 413, message: `Request body is larger than ${maxBodyBytes} bytes.` };
  }
  const contentType = request.headers['content-type'];
  if (!isJson(contentType)) {
    return {
      ok: false,
      status: 415,
      message: `Unsupported media type "${contentType ?? ''}" in request; send application/json.`,
    };
  }
  const bytes = request.body;
  if (bytes === undefined || bytes.length === 0) return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(decoder.decode(bytes)) };
  } catch (error) {
    return { ok: false, status: 400, message: `JSON parse error - ${(error as Error).message}` };
  }
}

function isJson(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const type = (contentType.split(';')[0] as string).trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

/** True for a plain JSON object (not an array, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
