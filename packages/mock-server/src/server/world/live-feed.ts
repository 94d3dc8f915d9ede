import { clockReading, type MockClock } from '../../data/clock.js';
import type { ServedHook } from '../../serve/engine/engine.js';
import { type JournalEntry, journalEntry, type RequestJournal } from '../../serve/engine/request-journal.js';
import { eventText, KEEP_ALIVE } from '../../serve/http/event-stream.js';
import type { StreamedBody } from '../../serve/http/types.js';

/**
 * The most characters of an answer's body an event carries: a page of calls runs to hundreds of kilobytes,
 * and a person reading it in the page needs its start, not a copy of every byte at every request.
 */
export const ANSWER_SHOWN_CHARS = 16_384;

/** How often a watcher hears from an otherwise quiet stream: the clock, which a proxy's idle timer sees too. */
const TICK_MS = 10_000;

/**
 * A request as the watch page is told of it, the moment it is answered: its journal entry (with its
 * `seq`), the world that answered it, how long it took, and the answer, which the journal does not keep.
 */
export interface LiveRequest extends JournalEntry {
  /** The world that answered: `default`, or a session's id. */
  readonly session: string;
  /** Real milliseconds from its arrival to its answer (injected delays and latency included). */
  readonly durationMs: number;
  /** The answer as written, or null when none was (a dropped connection, a client that left). */
  readonly answer: {
    readonly headers: Readonly<Record<string, string>>;
    /** Its body, cut to {@link ANSWER_SHOWN_CHARS} characters. */
    readonly body: string;
    /** The whole body's length in characters. */
    readonly length: number;
  } | null;
}

/** One open stream of events: how to write to it, and what it missed while it was behind. */
interface Watcher {
  readonly write: (piece: string) => boolean;
  readonly end: () => void;
  /** Requests not sent while the client was behind, told in a `skipped` event once it keeps up again. */
  skipped: number;
}

/**
 * A world's events for its watch page (`GET /__admin/events`): each request as it is answered, a change
 * made through the admin API, and the clock every {@link TICK_MS}. While nobody watches, the engine's hook is
 * the request log's alone (or none), so serving costs what it cost before the page existed; a watcher
 * makes the hook build an event per request, and the last one to leave takes it away again.
 */
export class LiveFeed {
  readonly #session: string;
  readonly #journal: RequestJournal;
  readonly #clock: MockClock;
  /** The request log's hook, which the feed's own calls first. */
  readonly #logged: ServedHook | undefined;
  readonly #watchers = new Set<Watcher>();
  #hook: ServedHook | undefined;
  #ticker: ReturnType<typeof setInterval> | undefined;
  #closed = false;

  /**
   * @param session - the world's id.
   * @param journal - the world's request journal, whose last `seq` is a new request's.
   * @param clock - the world's clock.
   * @param logged - the request log's hook, if any.
   */
  constructor(session: string, journal: RequestJournal, clock: MockClock, logged: ServedHook | undefined) {
    this.#session = session;
    this.#journal = journal;
    this.#clock = clock;
    this.#logged = logged;
    this.#hook = logged;
  }

  /** The engine's `onServed` now: the request log's, with the feed's while someone watches. */
  get onServed(): ServedHook | undefined {
    return this.#hook;
  }

  /** How many streams are open. */
  get watchers(): number {
    return this.#watchers.size;
  }

  /**
   * A stream of events for one watcher: first `hello` (the world's id and the journal's last `seq`, from
   * which the page reads what came before), then `request`, `world`, `tick` and `skipped` events.
   */
  body(): StreamedBody {
    return {
      open: (write, end) => {
        if (this.#closed) {
          end();
          return () => undefined;
        }
        const watcher: Watcher = { write, end, skipped: 0 };
        this.#watchers.add(watcher);
        this.#hook = this.#watch;
        this.#ticker ??= setInterval(() => this.#tick(), TICK_MS);
        // A timer must never keep a process alive that is done with its server.
        this.#ticker.unref?.();
        write(
          eventText('hello', {
            session: this.#session,
            lastSeq: this.#journal.stats().lastSeq,
            ...clockReading(this.#clock),
          }),
        );
        return () => this.#leave(watcher);
      },
    };
  }

  /**
   * Tells every watcher that the world changed through the admin API, so the page reads it again.
   *
   * @param what - the change, e.g. `POST clock/advance`.
   */
  changed(what: string): void {
    if (this.#watchers.size > 0)
      this.#send(eventText('world', { change: what, ...clockReading(this.#clock) }));
  }

  /** Ends every stream (the world closes or ends) and takes no more. */
  close(): void {
    this.#closed = true;
    for (const watcher of [...this.#watchers]) {
      this.#leave(watcher);
      watcher.end();
    }
  }

  #leave(watcher: Watcher): void {
    if (!this.#watchers.delete(watcher) || this.#watchers.size > 0) return;
    this.#hook = this.#logged;
    clearInterval(this.#ticker);
    this.#ticker = undefined;
  }

  #tick(): void {
    this.#send(`${KEEP_ALIVE}${eventText('tick', clockReading(this.#clock))}`);
  }

  #send(text: string): void {
    for (const watcher of this.#watchers) {
      if (watcher.skipped > 0) {
        if (!watcher.write(eventText('skipped', { requests: watcher.skipped }))) continue;
        watcher.skipped = 0;
      }
      watcher.write(text);
    }
  }

  /** The hook while someone watches: the request log's first, then an event of each journaled request. */
  readonly #watch: ServedHook = (request, atMs, served, durationMs) => {
    this.#logged?.(request, atMs, served, durationMs);
    const { outcome, status, keyName, fault, latencyMs, unmatched, result } = served;
    // Admin requests (the page's own) and the OpenAPI document are not journaled, nor shown.
    if (outcome === 'admin' || outcome === 'openapi') return;
    const entry = journalEntry(
      { atMs, request, status, outcome, keyName, fault, latencyMs, unmatched },
      this.#journal.stats().lastSeq,
    );
    const response = result === undefined || result.drop ? undefined : result.response;
    const live: LiveRequest = {
      ...entry,
      session: this.#session,
      durationMs: Math.round(durationMs * 10) / 10,
      answer:
        response === undefined
          ? null
          : {
              headers: response.headers,
              body: response.body.slice(0, ANSWER_SHOWN_CHARS),
              length: response.body.length,
            },
    };
    const text = eventText('request', live);
    for (const watcher of this.#watchers) {
      if (watcher.skipped > 0 && watcher.write(eventText('skipped', { requests: watcher.skipped })))
        watcher.skipped = 0;
      if (watcher.skipped > 0 || !watcher.write(text)) watcher.skipped++;
    }
  };
}
