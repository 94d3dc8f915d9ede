import type { ResponseHeaders } from './errors.js';

/** Status and headers of the response a result was read from. */
export interface ResponseInfo {
  /** HTTP status, e.g. 200, or 201 for a newly added audience member. */
  status: number;
  /** Response headers, lower-case names. */
  headers: ResponseHeaders;
}

/**
 * A result together with the response it came from, as given by `.withResponse()`.
 *
 * @typeParam T - the parsed result.
 */
export interface WithResponse<T> {
  /** The parsed result, as `await` alone would give it. */
  data: T;
  /** Status and headers of the response. */
  response: ResponseInfo;
}

/**
 * What every SDK method returns: a promise of the parsed result (the request starts at once, like any
 * promise), plus `.withResponse()` for the status and headers.
 *
 * @typeParam T - the parsed result.
 * @example
 * ```ts
 * const user = await client.users.retrieve(id);
 * const { data, response } = await client.users.retrieve(id).withResponse();
 * console.log(response.status, response.headers['content-type'], data.email);
 * ```
 */
export class APIPromise<T> implements PromiseLike<T> {
  readonly #result: Promise<WithResponse<T>>;

  /** @param result - the pending result with its response. */
  constructor(result: Promise<WithResponse<T>>) {
    this.#result = result;
  }

  /**
   * The parsed result together with the response's status and headers.
   *
   * @returns `{ data, response: { status, headers } }`.
   * @throws {@link CompanyDataError} (a subclass of it) when the call fails.
   */
  withResponse(): Promise<WithResponse<T>> {
    return this.#result;
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
    return this.#result.then(({ data }) => data).then(onfulfilled, onrejected);
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
