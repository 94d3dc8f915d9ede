import { randomUUID } from 'node:crypto';
import {
  ApiErrorBody,
  apiRootOf,
  compilePath,
  ERROR_DETAILS,
  endpointList,
  endpoints,
  parseThrottleDetail,
  rootPath,
  throttleDetail,
} from '@company-data/contract';
import type { CompanyData } from '@company-data/sdk';
import type { Exchange } from '../exchanges.js';
import { type CheckName, shown } from './findings.js';
import type { Answer, Probe } from './probe.js';
import { VERIFIED_RESOURCES } from './resources.js';

const NESTED = '{"error":{"detail":"..."}}, the error shape of data endpoints';

/**
 * Checks an error answer: its status, the nested `{error: {detail}}` shape and the detail text.
 *
 * @param detail - the exact text expected, or a test of the text with what it should say.
 */
function checkErrorAnswer(
  probe: Probe,
  check: CheckName,
  answer: Answer,
  status: number,
  detail: string | { test: (text: string) => boolean; expected: string },
): void {
  probe.findings.checked(check);
  if (!probe.expectStatus(check, answer, status)) return;
  const body = ApiErrorBody.safeParse(answer.json);
  if (!body.success) {
    const error = (answer.json as { error?: unknown } | undefined)?.error;
    probe.mismatch(
      check,
      answer,
      'error',
      error === undefined ? shown(answer.json ?? answer.body) : shown(error),
      NESTED,
    );
    return;
  }
  const text = body.data.error.detail;
  const ok = typeof detail === 'string' ? text === detail : detail.test(text);
  if (!ok)
    probe.mismatch(
      check,
      answer,
      'error.detail',
      shown(text),
      typeof detail === 'string' ? JSON.stringify(detail) : detail.expected,
    );
}

/**
 * Check `not-found`: every retrieve and transcript endpoint, asked for an id that cannot exist (a fresh
 * random uuid), answers 404 `{error: {detail: "Not found."}}`.
 */
export async function checkNotFound(probe: Probe, client: CompanyData): Promise<void> {
  for (const resource of VERIFIED_RESOURCES) {
    for (const { endpoint, call } of resource.reads) {
      const answer = await probe.call(endpoint.operationId, () => call(client, randomUUID()));
      checkErrorAnswer(probe, 'not-found', answer, 404, ERROR_DETAILS.notFound);
    }
  }
}

/**
 * Check `unauthorized`: a list and a retrieve sent with a key that cannot exist answer 401
 * `{error: {detail: "Invalid API key."}}`.
 *
 * @param badClient - a client whose key is made up.
 */
export async function checkUnauthorized(probe: Probe, badClient: CompanyData): Promise<void> {
  const list = await probe.call(endpoints.listUsers.operationId, () => badClient.users.list());
  checkErrorAnswer(probe, 'unauthorized', list, 401, ERROR_DETAILS.invalidKey);
  const retrieve = await probe.call(endpoints.retrieveUser.operationId, () =>
    badClient.users.retrieve(randomUUID()),
  );
  checkErrorAnswer(probe, 'unauthorized', retrieve, 401, ERROR_DETAILS.invalidKey);
}

/**
 * Check `throttle`: every 429 met during the run (the SDK waited it out) carried the spec's message,
 * `Request was throttled. Expected available in N seconds.`, in the nested error shape. Skipped when the
 * server throttled nothing.
 */
export function checkThrottled(probe: Probe, throttled: readonly Exchange[], baseURL: string): void {
  if (throttled.length === 0) {
    probe.findings.skip(
      'throttle',
      'no 429 met: the server throttled none of the requests, so its message could not be checked',
    );
    return;
  }
  const format = {
    test: (text: string) => {
      const seconds = parseThrottleDetail(text);
      return seconds !== undefined && throttleDetail(seconds) === text;
    },
    expected: JSON.stringify(throttleDetail(60)).replace('60', 'N'),
  };
  for (const exchange of throttled) {
    let json: unknown;
    try {
      json = JSON.parse(exchange.body);
    } catch {
      json = undefined;
    }
    const operation = operationOf(exchange, baseURL);
    const answer: Answer = {
      operation,
      request: `${exchange.method} ${exchange.target}`,
      status: 429,
      json,
      body: exchange.body,
      error: undefined,
    };
    checkErrorAnswer(probe, 'throttle', answer, 429, format);
  }
}

/** Each row of the endpoint table with the contract's matcher of its path below the API root. */
const ROUTES = endpointList.map((endpoint) => ({ endpoint, match: compilePath(rootPath(endpoint)) }));

/** The operation a throttled request was for, from its method and its path below the API root. */
function operationOf(exchange: Exchange, baseURL: string): string {
  const path = exchange.target.split('?')[0] ?? '';
  const root = new URL(apiRootOf(baseURL)).pathname.replace(/\/+$/, '');
  const below = path.startsWith(root) ? path.slice(root.length) : path;
  const route = ROUTES.find(({ endpoint, match }) => endpoint.method === exchange.method && match(below));
  return route?.endpoint.operationId ?? path;
}
