import { CompanyDataError } from '@company-data/sdk';
import type { z } from 'zod';
import type { ExchangeLog } from '../exchanges.js';
import { type CheckName, type Findings, shown } from './findings.js';

/** The answer to one SDK call, as the server sent it. */
export interface Answer {
  /** The operation, e.g. `listUsers`. */
  readonly operation: string;
  /** `GET /v1/users/?page=1`, for reports. */
  readonly request: string;
  /** HTTP status, or `undefined` when no answer came (connection failure). */
  readonly status: number | undefined;
  /** The body parsed as JSON (`undefined` when it is not JSON). */
  readonly json: unknown;
  /** The raw body. */
  readonly body: string;
  /** What the SDK threw, if anything. */
  readonly error: unknown;
}

/**
 * Makes SDK calls and hands back the answers as the server sent them, with the findings they feed. The
 * exchange log supplies each answer's raw body and its request as the report names it (method, path and
 * query): the SDK's results carry a body (`CompanyDataError.body`, `.asResponse()`) but not the URL asked.
 */
export class Probe {
  readonly findings: Findings;
  readonly #log: ExchangeLog;
  readonly #signal: AbortSignal | undefined;

  /**
   * @param log - the exchange log the clients send through.
   * @param findings - where mismatches go.
   * @param signal - stops the run before its next call.
   */
  constructor(log: ExchangeLog, findings: Findings, signal?: AbortSignal) {
    this.#log = log;
    this.findings = findings;
    this.#signal = signal;
  }

  /** Runs one SDK call and returns its answer; HTTP errors are answers too, never thrown. */
  async call(operation: string, send: () => PromiseLike<unknown>): Promise<Answer> {
    this.#signal?.throwIfAborted();
    const sent = this.#log.requests;
    let error: unknown;
    try {
      await send();
    } catch (caught) {
      if (!(caught instanceof CompanyDataError)) throw caught;
      error = caught;
    }
    // Nothing sent (the SDK refused the input) or nothing answered: there is no exchange of this call.
    const exchange = this.#log.requests > sent ? this.#log.last : undefined;
    if (exchange === undefined)
      return { operation, request: operation, status: undefined, json: undefined, body: '', error };
    let json: unknown;
    try {
      json = JSON.parse(exchange.body);
    } catch {
      json = undefined;
    }
    const request = `${exchange.method} ${exchange.target}`;
    return { operation, request, status: exchange.status, json, body: exchange.body, error };
  }

  /**
   * Records a mismatch for an answer whose status is not the one expected.
   *
   * @returns whether the status was the expected one.
   */
  expectStatus(check: CheckName, answer: Answer, expected: number): boolean {
    if (answer.status === expected) return true;
    const why =
      answer.status === undefined ? `no answer: ${(answer.error as Error | undefined)?.message}` : undefined;
    this.mismatch(check, answer, 'status', why ?? String(answer.status), String(expected));
    return false;
  }

  /**
   * Validates an answer's JSON against a contract schema; every issue becomes a mismatch naming the field
   * and the value found there.
   *
   * @returns whether it matched.
   */
  expectSchema(check: CheckName, answer: Answer, schema: z.ZodType): boolean {
    const result = schema.safeParse(answer.json);
    if (result.success) return true;
    for (const issue of result.error.issues) {
      const value = issue.path.reduce<unknown>(
        (parent, key) =>
          typeof parent === 'object' && parent !== null
            ? (parent as Record<PropertyKey, unknown>)[key]
            : undefined,
        answer.json,
      );
      this.mismatch(check, answer, fieldPath(issue.path), shown(value), expectation(issue));
    }
    return false;
  }

  /** Records a mismatch about an answer. */
  mismatch(check: CheckName, answer: Answer, field: string, value: string, expected: string): void {
    this.findings.fail(check, {
      operation: answer.operation,
      request: answer.request,
      field,
      value,
      expected,
    });
  }
}

/** `['data', 3, 'full_name']` → `data[3].full_name`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? String(segment) : `.${String(segment)}`;
  }
  return out || '(body)';
}

/**
 * What the contract expects, without the words the report prints around it: zod says "Invalid input:
 * expected string, received undefined" and the report reads "…: missing, expected string" (the value is
 * shown beside it already, and "expected" once).
 */
function expectation(issue: Pick<z.core.$ZodIssue, 'message'>): string {
  const message = issue.message.replace(/, received \w+$/, '');
  const at = message.indexOf('expected ');
  return at >= 0 ? message.slice(at + 'expected '.length) : message;
}
