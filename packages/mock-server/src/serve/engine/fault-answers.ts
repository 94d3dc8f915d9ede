import { STATUS_CODES } from 'node:http';
import { errorBody, INJECTED_FAULT_DETAIL, json } from '../http/responses.js';
import type { MockResponse, RequestOutcome, Resolved } from '../http/types.js';
import type { Unmatched } from '../http/unmatched.js';
import type { Drip, InjectedFault } from './faults.js';

/**
 * How an adapter must write a response's body when a body fault asks for it: a few bytes at a time,
 * and/or only its first bytes before the connection is destroyed (the headers keep the whole body's
 * `Content-Length`).
 *
 * @example
 * ```ts
 * const result = await server.handle(request);
 * if (!result.drop && result.delivery?.cutAfterBytes !== undefined) console.log('the body will be cut');
 * ```
 */
export interface BodyDelivery {
  /** Send the body in pieces of `bytes`, `everyMs` apart. */
  readonly drip?: Drip | undefined;
  /** Send this many bytes of the body (already at least one short of it), then destroy the connection. */
  readonly cutAfterBytes?: number | undefined;
}

/** The answer to a request under an injected fault (one that does not drop the connection). */
export interface FaultedAnswer {
  readonly response: MockResponse;
  /** `fault_injected`, or the real answer's outcome when the fault only adds headers to it. */
  readonly outcome: RequestOutcome;
  readonly keyName?: string | undefined;
  readonly unmatched?: Unmatched | undefined;
  /** How the body must be written, when the fault drips or cuts it. */
  readonly delivery?: BodyDelivery | undefined;
}

/**
 * What an injected fault makes of a request's answer: a proxy's HTML error page; the fault's own status and
 * body; or the real answer, resolved, then made malformed (its first half) or given the fault's headers.
 *
 * @param fault - the fault, which does not drop the connection.
 * @param resolve - resolves the request for real, when the fault needs its answer.
 */
export function faultedAnswer(fault: InjectedFault, resolve: () => Resolved): FaultedAnswer {
  let response: MockResponse;
  let outcome: RequestOutcome = 'fault_injected';
  let keyName: string | undefined;
  let unmatched: Unmatched | undefined;
  if (fault.htmlPage) response = htmlPage(fault);
  else if (fault.status !== undefined && !fault.malformedJson) response = faultResponse(fault);
  else {
    const resolved = resolve();
    keyName = resolved.keyName;
    unmatched = resolved.unmatched;
    response = fault.malformedJson
      ? malformed(resolved.response, fault)
      : decorated(resolved.response, fault);
    // A fault with headers only decorates the real answer (e.g. a Retry-After on a 200): its real outcome stands.
    if (!fault.malformedJson && fault.drip === undefined && fault.cutAfterBytes === undefined)
      outcome = resolved.outcome;
  }
  const delivery = bodyDelivery(fault, Buffer.byteLength(response.body));
  return { response, outcome, keyName, unmatched, delivery };
}

/** The page a proxy in front of an API answers with when the API fails (as the `htmlPage` fault sends it). */
const HTML_HEADERS = Object.freeze({ 'content-type': 'text/html; charset=utf-8' });

function faultResponse(fault: InjectedFault): MockResponse {
  const headers = lower(fault.headers ?? {});
  if (typeof fault.body === 'string') {
    return {
      status: fault.status ?? 500,
      headers: { 'content-type': 'text/plain', ...headers },
      body: fault.body,
    };
  }
  const body = fault.body === undefined ? errorBody('nested', INJECTED_FAULT_DETAIL) : fault.body;
  return json(fault.status ?? 500, body, headers);
}

/** The real answer with the fault's headers added (none: as it is). */
function decorated(response: MockResponse, fault: InjectedFault): MockResponse {
  if (!fault.headers) return response;
  return {
    status: response.status,
    headers: { ...response.headers, ...lower(fault.headers) },
    body: response.body,
  };
}

/** The real answer's first half under a 200 (or the fault's status): complete, but not JSON any more. */
function malformed(response: MockResponse, fault: InjectedFault): MockResponse {
  const body = response.body.slice(0, Math.max(1, Math.floor(response.body.length / 2)));
  return {
    status: fault.status ?? 200,
    headers: { ...response.headers, ...lower(fault.headers ?? {}) },
    body,
  };
}

/** An HTML error page, as a proxy in front of an API answers when the API behind it fails. */
function htmlPage(fault: InjectedFault): MockResponse {
  const status = fault.status ?? 502;
  const title = `${status} ${STATUS_CODES[status] ?? 'Error'}`;
  const body =
    typeof fault.body === 'string'
      ? fault.body
      : `<!DOCTYPE html>\n<html>\n<head><title>${title}</title></head>\n<body>\n<center><h1>${title}</h1></center>\n<hr><center>mock-proxy</center>\n</body>\n</html>\n`;
  return { status, headers: { ...HTML_HEADERS, ...lower(fault.headers ?? {}) }, body };
}

/** How the body must be written, when a body fault asks; the cut always falls at least one byte short. */
function bodyDelivery(fault: InjectedFault, length: number): BodyDelivery | undefined {
  const { drip, cutAfterBytes } = fault;
  if (drip === undefined && cutAfterBytes === undefined) return undefined;
  if (cutAfterBytes === undefined) return { drip };
  return { drip, cutAfterBytes: Math.max(0, Math.min(cutAfterBytes, length - 1)) };
}

function lower(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = value;
  return out;
}
