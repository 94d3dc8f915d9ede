import type { OperationMeta } from '@company-data/contract/runtime';
import { ConnectionError } from '../core/errors.js';
import type { HedgeOptions, HedgeOutcome, Sleep } from '../core/options.js';
import type { RateGateLike } from '../core/rate-gate-interface.js';
import type { SdkLogger } from '../core/scrubbed-logger.js';
import type { HedgeBudget } from './hedge-budget.js';
import type { ResponseTimes } from './response-times.js';
import { classifyStatus } from './retry.js';
import type { AttemptRequest, AttemptResponse, Transport } from './transport.js';

// Hedged reads (the `hedge` option): one attempt of a GET may go out twice. The request core sends the
// first copy as always (its request slot and the rate gate taken); this file times it, sends the second
// copy through a slot and the gate of its own, and decides which answer the attempt gets. The core then
// treats that answer as the attempt's, with its usual retry rules.

/** What a hedged read needs of the client: its transport, gate, clock, logger and response times. */
export interface HedgeContext {
  readonly transport: Transport;
  readonly gate: RateGateLike;
  readonly sleep: Sleep;
  readonly logger: SdkLogger;
  readonly responseTimes: ResponseTimes;
  /** The hedges the client may still send. */
  readonly hedgeBudget: HedgeBudget;
}

/** What a hedged read needs of the operation. */
type HedgedEndpoint = Pick<OperationMeta, 'method' | 'path' | 'successStatuses'> & {
  readonly operationId: string;
};

/** How one copy ended: its response (any status), or what its transport threw. */
type CopyResult = { readonly response: AttemptResponse } | { readonly error: unknown };

/** The two copies of an attempt. */
type Copy = 'first' | 'hedge';

/**
 * The hedge of one call, or `undefined` when it is sent once: hedging is off (`false`, the default), or
 * the call is not a GET (a webhook's POST never is hedged, whatever the options say).
 *
 * @param endpoint - the operation called.
 * @param setting - the call's `hedge` option, else the client's.
 * @param context - the client's machinery.
 */
export function hedgedRead(
  endpoint: HedgedEndpoint,
  setting: boolean | HedgeOptions | undefined,
  context: HedgeContext,
): HedgedRead | undefined {
  if (endpoint.method !== 'GET' || setting === undefined || setting === false) return undefined;
  return new HedgedRead(endpoint, setting === true ? undefined : setting.afterMs, context);
}

/**
 * Sends each attempt of one GET call, and a second copy of it when the first has waited past the
 * threshold: a fixed `afterMs`, or the adaptive one of {@link ResponseTimes}. The rules:
 *
 * - The second copy passes the rate gate (quota and 429 pauses) like any request, but takes no request
 *   slot of a list: a hung first copy holds its slot, and a hedge waiting for a slot that other hung pages
 *   hold would come too late (a list has at most `concurrency` first copies in flight, plus at most one
 *   second copy each). It is given up if the first copy settles before it is on the wire.
 * - The first copy to bring a success, a 429 or another final answer (a 4xx, the caller's abort) decides
 *   the attempt; the other copy is aborted, its socket closed.
 * - A copy that fails in a way that is retried (a 5xx, a 408, a connection error, its `timeout`) does not
 *   decide while the other copy is on the wire: the other may still succeed.
 * - When both fail so, the attempt fails with the first copy's failure, as it would have without the
 *   hedge: one failed attempt, one retry (and one `onRetry` event), never two.
 */
export class HedgedRead {
  /** The last attempt's hedge, when its second copy went out: which copy decided it. */
  outcome: HedgeOutcome | undefined;
  readonly #endpoint: HedgedEndpoint;
  readonly #afterMs: number | undefined;
  readonly #context: HedgeContext;

  /**
   * @param endpoint - the operation called.
   * @param afterMs - a fixed threshold; the adaptive one when `undefined`.
   * @param context - the client's machinery.
   */
  constructor(endpoint: HedgedEndpoint, afterMs: number | undefined, context: HedgeContext) {
    this.#endpoint = endpoint;
    this.#afterMs = afterMs;
    this.#context = context;
  }

  /**
   * Sends one attempt, hedged when it waits past the threshold.
   *
   * @param input - the first copy's request (the core has taken its slot and passed the gate).
   * @param aborted - the error the call's abort rejects with.
   * @param attempt - 1 for the first attempt, for the log.
   * @returns the answer that decided the attempt (a failure status included).
   * @throws what the deciding copy's transport threw.
   */
  async send(input: AttemptRequest, aborted: () => Error, attempt: number): Promise<AttemptResponse> {
    this.outcome = undefined;
    const afterMs = this.#afterMs ?? this.#context.responseTimes.hedgeAfterMs(this.#endpoint.operationId);
    if (afterMs === undefined) return settled(await this.#copy(input));
    this.#context.hedgeBudget.earn();
    const stopFirst = new AbortController();
    const first = this.#copy({ ...input, signal: joined(input.signal, stopFirst.signal) });
    const timer = new AbortController();
    const fired = this.#context.sleep(afterMs, timer.signal).then(
      () => 'fired' as const,
      () => 'fired' as const,
    );
    const early = await Promise.race([first, fired]);
    if (early !== 'fired' || input.signal?.aborted) {
      timer.abort();
      return settled(await first);
    }
    if (!this.#context.hedgeBudget.spend()) {
      this.#log(`no second copy of ${input.label}: the client's hedge budget is spent`, { attempt, afterMs });
      return settled(await first);
    }
    return this.#race(input, first, stopFirst, { aborted, afterMs, attempt });
  }

  /** The first copy has waited past the threshold: sends the second, and decides between them. */
  async #race(
    input: AttemptRequest,
    first: Promise<CopyResult>,
    stopFirst: AbortController,
    context: { aborted: () => Error; afterMs: number; attempt: number },
  ): Promise<AttemptResponse> {
    const { afterMs, attempt } = context;
    const stopHedge = new AbortController();
    let onWire = false;
    const hedge = this.#hedgeCopy(input, stopHedge, context, () => {
      onWire = true;
      this.#log(`sending a second copy of ${input.label}: the first has waited ${afterMs} ms`, {
        attempt,
        afterMs,
      });
    });
    const pending = new Map<Copy, Promise<readonly [Copy, CopyResult]>>([
      ['first', first.then((result) => ['first', result] as const)],
      ['hedge', hedge.then((result) => ['hedge', result] as const)],
    ]);
    let firstFailure: CopyResult | undefined;
    for (;;) {
      const [copy, result] = await Promise.race(pending.values());
      pending.delete(copy);
      if (copy === 'first') firstFailure = result;
      const waitForOther = !this.#decides(result) && pending.size === 1 && (copy === 'hedge' || onWire);
      if (waitForOther) continue;
      const decided = this.#decides(result) ? result : (firstFailure as CopyResult);
      const winner: Copy = decided === result ? copy : 'first';
      stopFirst.abort(LOST);
      stopHedge.abort(LOST);
      if (onWire) {
        this.outcome = { winner, afterMs };
        this.#log(`${winner === 'hedge' ? 'the second copy' : 'the first copy'} of ${input.label} decided`, {
          attempt,
          hedge: this.outcome,
        });
      }
      return settled(decided);
    }
  }

  /** The second copy: the gate, as any request, then the request; given up once `stop` aborts. */
  async #hedgeCopy(
    input: AttemptRequest,
    stop: AbortController,
    context: { aborted: () => Error },
    sending: () => void,
  ): Promise<CopyResult> {
    const signal = joined(input.signal, stop.signal);
    try {
      await this.#context.gate.wait(signal, context.aborted);
      if (signal.aborted) return { error: context.aborted() };
      sending();
      return await this.#copy({ ...input, signal });
    } catch (error) {
      return { error };
    }
  }

  /** Sends one copy, recording its time when it succeeds; never rejects. */
  async #copy(input: AttemptRequest): Promise<CopyResult> {
    const started = performance.now();
    try {
      const response = await this.#context.transport.send(input);
      const result = { response };
      if (this.#succeeded(result)) {
        this.#context.responseTimes.record(this.#endpoint.operationId, performance.now() - started);
      }
      return result;
    } catch (error) {
      return { error };
    }
  }

  #succeeded(result: CopyResult): boolean {
    return 'response' in result && this.#endpoint.successStatuses.includes(result.response.status);
  }

  /** Whether a copy's result decides the attempt: all but the failures that are retried. */
  #decides(result: CopyResult): boolean {
    if ('error' in result) return !(result.error instanceof ConnectionError);
    return this.#succeeded(result) || classifyStatus(result.response.status) !== 'backoff';
  }

  #log(message: string, fields: Record<string, unknown>): void {
    const { logger } = this.#context;
    if (!logger.debugEnabled) return;
    const { method, path } = this.#endpoint;
    logger.debug(`company-data hedge: ${message}`, { operation: `${method} ${path}`, ...fields });
  }
}

/** Why a copy was aborted: the other one decided its attempt. */
const LOST = new Error('the other copy of this hedged request decided it');

/** A signal that aborts with either. */
function joined(signal: AbortSignal | undefined, own: AbortSignal): AbortSignal {
  return signal === undefined ? own : AbortSignal.any([signal, own]);
}

/** The response of a copy's result, or its error thrown. */
function settled(result: CopyResult): AttemptResponse {
  if ('error' in result) throw result.error;
  return result.response;
}
