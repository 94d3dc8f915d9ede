import type { HedgeOutcome } from '../core/options.js';
import type { RateGateLike } from '../core/rate-gate-interface.js';
import { type CallTelemetry, TELEMETRY } from '../core/telemetry/sink.js';
import { subscribed, WorkTrace } from '../core/telemetry/traced-work.js';
import type { AttemptContext, CallContext, PageContext } from '../core/telemetry/tracing-channels.js';
import { attemptContext, type Settable } from '../core/telemetry/tracing-contexts.js';
import type { CallRequest } from './call-request.js';
import type { Flight } from './flight.js';

// What the attempts of a call tell its span and the tracing channels (the request core's telemetry step):
// each attempt's events on the `attempt` channel, the waits at the gate, the hedges, and the attempts a
// call took.

/** The attempt's events on the `attempt` tracing channel, when something listens to it. */
export function attemptTrace(call: CallRequest, attempt: number): WorkTrace<AttemptContext> | undefined {
  const channel = subscribed('attempt');
  if (channel === undefined) return undefined;
  return new WorkTrace<AttemptContext>(channel, attemptContext(call.endpoint, attempt, call.page));
}

/** An attempt was answered: its status, and which copy decided it when it was hedged. */
export function answeredAttempt(
  context: Settable<AttemptContext>,
  status: number,
  hedge: HedgeOutcome | undefined,
): void {
  context.status = status;
  if (hedge !== undefined) context.hedge = hedge.winner;
}

/** Whether a gate says it is paused for a 429 (the SDK's `RateGate` does; the interface does not ask it). */
export function isPaused(gate: RateGateLike): boolean {
  return (gate as { readonly paused?: unknown }).paused === true;
}

/** An attempt waited at the rate gate for a 429's pause: this call's own, or one another request met. */
export function gateWaited(
  telemetry: CallTelemetry,
  waitedMs: number,
  attempt: number,
  pausedHere: boolean,
): void {
  if (!(waitedMs > 0)) return;
  telemetry.recordEvent(TELEMETRY.gateWaitEvent, {
    [TELEMETRY.attempt]: attempt,
    [TELEMETRY.waitMs]: waitedMs,
    [TELEMETRY.waitCause]: pausedHere ? 'this_call' : 'other',
  });
}

/** A hedged read's second copy went out: an event saying which copy answered the attempt. */
export function hedged(telemetry: CallTelemetry | undefined, outcome: HedgeOutcome, attempt: number): void {
  telemetry?.recordEvent(TELEMETRY.hedgeEvent, {
    [TELEMETRY.attempt]: attempt,
    [TELEMETRY.hedgeWinner]: outcome.winner,
    [TELEMETRY.hedgeAfterMs]: outcome.afterMs,
  });
}

/** The call ended: its attempts and the last status on its span and on its tracing context. */
export function recordAttempts(
  flight: Flight,
  context: Settable<CallContext | PageContext> | undefined,
): void {
  const { attempt, status } = flight;
  flight.telemetry?.setAttributes({
    [TELEMETRY.attempts]: attempt,
    'http.request.resend_count': attempt > 1 ? attempt - 1 : undefined,
    'http.response.status_code': status,
  });
  if (context !== undefined) {
    context.attempts = attempt;
    context.status = status;
  }
}
