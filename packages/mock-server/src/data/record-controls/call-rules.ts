import type { Call } from '@company-data/contract';
import { isoSeconds } from '../fake/time.js';
import { EXCUSE_REASONS } from '../fake/words.js';
import type { Prng } from '../random/prng.js';

/** Fields as given to a change, checked. */
type Fields = Record<string, unknown>;

/**
 * A call with the given fields applied under the rules a real call keeps: an excused call has an
 * `excused_at` (now, when not given) and a reason (drawn as the generator does, when not given), a call not
 * excused has neither; a booked call is qualified; a cancellation call has a cancellation.
 *
 * @param before - the call as it is.
 * @param given - the fields given (checked).
 * @param atMs - the change's time: an excusal's `excused_at` unless given.
 * @param random - where a missing reason is drawn from.
 * @throws Error when the given fields contradict each other.
 */
export function settleCall(before: Call, given: Fields, atMs: number, random: Prng): Call {
  const next = { ...before, ...given } as Call;
  if (next.is_excused) {
    if (Object.hasOwn(given, 'excused_at') && given.excused_at === null)
      throw new Error('call.excused_at: an excused call has a time; set is_excused: false to clear it');
    if (!before.is_excused && !Object.hasOwn(given, 'excused_at')) next.excused_at = isoSeconds(atMs);
    if (next.excuse_reason === null && !Object.hasOwn(given, 'excuse_reason'))
      next.excuse_reason = random.pick(EXCUSE_REASONS);
  } else {
    for (const name of ['excused_at', 'excuse_reason'] as const)
      if (Object.hasOwn(given, name) && given[name] !== null)
        throw new Error(
          `call.${name}: only an excused call has one; give is_excused: true with it (or null to clear it)`,
        );
    next.excused_at = null;
    next.excuse_reason = null;
  }
  settlePair(next, given, 'is_booked', 'is_qualified', 'a booked call is qualified');
  settlePair(next, given, 'is_cancellation', 'has_cancellation', 'a cancellation call has a cancellation');
  return next;
}

/** Keeps `implied` true wherever `implying` is: follows the field given alone, refuses a contradiction. */
function settlePair(
  call: Call,
  given: Fields,
  implying: 'is_booked' | 'is_cancellation',
  implied: 'is_qualified' | 'has_cancellation',
  rule: string,
): void {
  if (!call[implying] || call[implied]) return;
  const gaveImplying = Object.hasOwn(given, implying);
  const gaveImplied = Object.hasOwn(given, implied);
  if (gaveImplying && !gaveImplied) call[implied] = true;
  else if (gaveImplied && !gaveImplying) call[implying] = false;
  else throw new Error(`call.${implied}: ${rule}; ${implying}: true needs ${implied}: true`);
}
