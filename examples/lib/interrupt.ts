// Ctrl+C (SIGINT) and SIGTERM (a deploy, `docker stop`, systemd) for the copy examples: the first one asks the
// run to stop after the page it is writing, and aborts the request in flight; a second one quits at once.

/** What the copy examples exit with when a signal stopped them (as the `company-data` command does). */
export const INTERRUPTED_EXIT_CODE = 130;

/** A stop requested by a signal. */
export interface Interrupt {
  /** Aborts when the first SIGINT or SIGTERM arrives: pass it as the requests' `signal`. */
  readonly signal: AbortSignal;
  /** The signal received, once one was. */
  readonly received: NodeJS.Signals | undefined;
}

/**
 * Listens for SIGINT and SIGTERM. The first aborts {@link Interrupt.signal}; the run then finishes the page it
 * is writing (or abandons the one still on the wire) and stops. A second quits at once: the output may then
 * end with part of a page, which the next run cuts off, since the progress file never counted it.
 */
export function listenForInterrupt(): Interrupt {
  const controller = new AbortController();
  let received: NodeJS.Signals | undefined;
  for (const name of ['SIGINT', 'SIGTERM'] as const) {
    process.on(name, () => {
      if (received) process.exit(INTERRUPTED_EXIT_CODE);
      received = name;
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
