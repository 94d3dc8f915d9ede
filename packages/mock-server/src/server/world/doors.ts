import type { Dispatcher } from 'undici';
import { createInProcessDispatcher } from '../../serve/adapters/dispatcher.js';
import { listen } from '../../serve/adapters/listener.js';
import type { RequestAnswerer } from '../../serve/engine/engine.js';

/**
 * Where a world answers: its origin, the node:http listener of a started server, and the in-process
 * dispatcher, made on first use. Both hand each request to the world's answerer: a session's engine, or
 * a server's sessions, which pass it to the engine of the session it belongs to.
 */
export class Doors {
  readonly #answerer: RequestAnswerer;
  readonly #maxBodyBytes: number;
  #origin: string | undefined;
  #stopListening: (() => Promise<void>) | undefined;
  #dispatcher: Dispatcher | undefined;
  #closed: Promise<void> | undefined;

  /**
   * @param answerer - what answers the requests.
   * @param maxBodyBytes - the request body limit.
   * @param origin - the origin in-process requests use; undefined until a listener gives one.
   */
  constructor(answerer: RequestAnswerer, maxBodyBytes: number, origin: string | undefined) {
    this.#answerer = answerer;
    this.#maxBodyBytes = maxBodyBytes;
    this.#origin = origin;
  }

  /** The origin, once known (a started server's is its listener's). */
  get knownOrigin(): string | undefined {
    return this.#origin;
  }

  /** @throws Error while the world has no origin (a server started on a port, before it listens). */
  get origin(): string {
    if (this.#origin === undefined) throw new Error('The mock server is not listening yet');
    return this.#origin;
  }

  /**
   * Listens on a port of this machine; the listener's address becomes the origin.
   *
   * @param port - the port (0: any free one).
   * @param host - the interface.
   * @throws the listen error of node:http (`EADDRINUSE`, …).
   */
  async listen(port: number, host: string): Promise<void> {
    const listener = await listen(this.#answerer, { port, host, maxBodyBytes: this.#maxBodyBytes });
    this.#origin = listener.origin;
    this.#stopListening = () => listener.close();
  }

  /** An undici dispatcher answering in-process, made on first use. */
  get dispatcher(): Dispatcher {
    this.#dispatcher ??= createInProcessDispatcher(this.#answerer, this.origin, this.#maxBodyBytes);
    return this.#dispatcher;
  }

  /** Stops the listener, then the dispatcher; once (every later call gives the same promise). */
  close(): Promise<void> {
    this.#closed ??= (async () => {
      await this.#stopListening?.();
      await this.#dispatcher?.close();
    })();
    return this.#closed;
  }
}
