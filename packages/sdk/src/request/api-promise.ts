import type { WithResponse } from '../core/response-info.js';
import type { AnsweredCall } from './call-request.js';

/**
 * What every SDK method returns: a promise of the parsed result (the request starts at once, like any
 * promise), plus `.withResponse()` for the status and headers, and `.asResponse()` for the raw response.
 *
 * @typeParam T - the parsed result.
 * @example
 * ```ts
 * const user = await client.users.retrieve(id);
 * const { data, response } = await client.users.retrieve(id).withResponse();
 * console.log(response.status, response.headers['content-type'], data.email);
 * const raw = await client.users.retrieve(id).asResponse(); // a fetch Response, body unread
 * ```
 */
export class APIPromise<T> implements PromiseLike<T> {
  #answered: Promise<AnsweredCall> | undefined;
  readonly #start: (() => Promise<AnsweredCall>) | undefined;
  readonly #parse: (answered: AnsweredCall) => WithResponse<T> | Promise<WithResponse<T>>;
  #parsed: Promise<WithResponse<T>> | undefined;
  /** The response once read: what `parse` gave (a promise when it must wait), or what it threw. */
  #read:
    | { readonly value: WithResponse<T> | Promise<WithResponse<T>> }
    | { readonly error: unknown }
    | undefined;

  /**
   * @param answered - the call under way, resolved with its success response, or how to send it when
   * first needed.
   * @param parse - reads the result out of the response (only when asked for: `asResponse()` does not).
   * @internal
   */
  constructor(
    answered: Promise<AnsweredCall> | (() => Promise<AnsweredCall>),
    parse: (answered: AnsweredCall) => WithResponse<T> | Promise<WithResponse<T>>,
  ) {
    if (typeof answered === 'function') this.#start = answered;
    else this.#answered = answered;
    this.#parse = parse;
  }

  /**
   * The answered call, sent now if it was not yet (a list sends its first page a turn after it is made).
   *
   * @returns the call under way.
   * @internal
   */
  protected sent(): Promise<AnsweredCall> {
    this.#answered ??= (this.#start as () => Promise<AnsweredCall>)();
    return this.#answered;
  }

  /**
   * The parsed result together with the response's status and headers.
   *
   * @returns `{ data, response: { status, headers } }`.
   * @throws {@link CompanyDataError} (a subclass of it) when the call fails.
   */
  withResponse(): Promise<WithResponse<T>> {
    this.#parsed ??= this.sent().then((answered) => this.#readOnce(answered));
    return this.#parsed;
  }

  /** Reads the response the first time, and gives (or throws) the same outcome every time after. */
  #readOnce(answered: AnsweredCall): WithResponse<T> | Promise<WithResponse<T>> {
    if (this.#read === undefined) {
      try {
        this.#read = { value: this.#parse(answered) };
      } catch (error) {
        this.#read = { error };
      }
    }
    if ('error' in this.#read) throw this.#read.error;
    return this.#read.value;
  }

  /**
   * The raw success response, as `fetch` gives it: status, headers and the body, neither parsed nor
   * checked against the schema (the body is already downloaded; read it with `.json()` or `.text()`).
   * For a field the SDK does not know yet, or to store the API's exact bytes. Retries and rate-limit
   * waits happen as for any call, and an error status still throws.
   *
   * @returns a WHATWG `Response`.
   * @throws {@link CompanyDataError} (a subclass of it) when the call fails.
   * @example
   * ```ts
   * const response = await client.calls.list({ page_size: 100 }).asResponse();
   * const body = await response.json(); // the first page, exactly as the server sent it
   * ```
   */
  async asResponse(): Promise<Response> {
    const { response } = await this.sent();
    return new Response(response.body, { status: response.status, headers: response.headers });
  }

  /**
   * Attaches callbacks like `Promise.prototype.then`; `await` uses it.
   *
   * @param onfulfilled - called with the parsed result.
   * @param onrejected - called with the error.
   * @returns a promise of the callback's result.
   */
  // biome-ignore lint/suspicious/noThenProperty: a thenable is the point of this class.
  then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    const handOn = onfulfilled ? ({ data }: WithResponse<T>) => onfulfilled(data) : dataOf<T, R1>;
    if (this.#parsed !== undefined) return this.#parsed.then(handOn, onrejected);
    // Awaiting a call is the SDK's hottest path: the response is read and its data handed on in one step
    // after it arrives, not through withResponse()'s promise and then a second (each is a turn of the
    // microtask queue). The outcome of the read is kept, so withResponse() later reads nothing again.
    return this.sent().then<R1 | R2, R2>((answered) => {
      let read: WithResponse<T> | Promise<WithResponse<T>>;
      try {
        read = this.#readOnce(answered);
      } catch (error) {
        if (onrejected) return onrejected(error);
        throw error;
      }
      return read instanceof Promise ? read.then(handOn, onrejected) : handOn(read);
    }, onrejected);
  }

  /**
   * Attaches a rejection callback like `Promise.prototype.catch`.
   *
   * @param onrejected - called with the error.
   * @returns a promise of the result or of the callback's result.
   */
  catch<R = never>(onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.then(undefined, onrejected);
  }

  /**
   * Attaches a callback run on settlement like `Promise.prototype.finally`.
   *
   * @param onfinally - called either way.
   * @returns a promise settled like this one.
   */
  finally(onfinally?: (() => void) | null): Promise<T> {
    return this.then().finally(onfinally);
  }

  /** `'APIPromise'`, for `Object.prototype.toString`. */
  get [Symbol.toStringTag](): string {
    return 'APIPromise';
  }
}

/** A result's data, as `then()` without a callback hands it on. */
function dataOf<T, R>({ data }: WithResponse<T>): R {
  return data as unknown as R;
}
