import type { BodyDelivery } from '../engine/fault-answers.js';
import { sleep } from '../engine/sleep.js';

/**
 * Writes the part of a body a body fault lets through: all of it, or its first `cutAfterBytes`; in
 * one piece, or dripped (`drip.bytes` every `drip.everyMs`). The caller then ends the body, or destroys
 * the connection when `cutAfterBytes` is set.
 *
 * @param bytes - the whole body.
 * @param delivery - how to write it.
 * @param write - writes one piece (resolving once it is handed on, if it has to wait).
 * @param signal - the client went away: stop writing.
 * @throws the signal's reason when it aborts mid-way.
 */
export async function deliver(
  bytes: Uint8Array,
  delivery: BodyDelivery,
  write: (piece: Uint8Array) => void | Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  const sent = delivery.cutAfterBytes === undefined ? bytes : bytes.subarray(0, delivery.cutAfterBytes);
  const step = delivery.drip?.bytes ?? Math.max(1, sent.length);
  for (let offset = 0; offset < sent.length; offset += step) {
    if (offset > 0 && delivery.drip !== undefined) await sleep(delivery.drip.everyMs, signal);
    await write(sent.subarray(offset, offset + step));
  }
}
