// Ctrl+C (SIGINT) and SIGTERM (a deploy, `docker stop`, systemd) for the copy examples: the first one asks the
// run to stop after the page it is writing, and aborts the request in flight; a second one quits at once.

/** What the copy examples exit with when a signal stopped them (as the `company-data` command does). */
export const INTERRUPTED_EXIT_CODE = 130;

/**
 * A signal this soon after the first is the same interrupt delivered twice, not a second Ctrl+C: a wrapper
 * that forwards signals to its child (`examples/with-mock.mjs`, npm scripts, some process managers) passes on
 * the Ctrl+C the terminal already sent the whole process group.
 */
const SAME_INTERRUPT_MS = 500;

/** A stop requested by a signal. */
export interface Interrupt {
  /** Aborts when the first SIGINT or SIGTERM arrives: pass it as the requests' `signal`. */
  readonly signal: AbortSignal;
  /** The signal received, once one was. */
  readonly received: NodeJS.Signals | undefined;
}

/**
 * Listens for SIGINT and SIGTERM. The first aborts {@link Interrupt.signal}; the run then finishes the page it
 * is writing (or abandons the one still on the wire) and stops. A second one, at least half a second later,
 * quits at once: the output may then end with part of a page, which the next run cuts off, since the progress
 * file never counted it.
 */
export function listenForInterrupt(): Interrupt {
  const controller = new AbortController();
  let received: NodeJS.Signals | undefined;
  let receivedAt = 0;
  for (const name of ['SIGINT', 'SIGTERM'] as const) {
    process.on(name, () => {
      if (received) {
        if (performance.now() - receivedAt >= SAME_INTERRUPT_MS) process.exit(INTERRUPTED_EXIT_CODE);
        return;
      }
      received = name;
      receivedAt = performance.now();
      process.stderr.write(`\n${name} received: stopping after the page in hand (again to quit at once)\n`);
      controller.abort(new Error(`received ${name}`));
    });
  }
  return {
    signal: controller.signal,
    get received() {
      return received;
    },
  };
}
