/**
 * Response headers as the SDK exposes them: lower-case names, repeated headers joined with `, `.
 */
export type ResponseHeaders = Readonly<Record<string, string>>;

/**
 * One thing wrong with an input or a response body, in the SDK's own terms (not a validation library's,
 * so that its shape stays put when the SDK's validator changes).
 *
 * @example
 * ```ts
 * if (error instanceof ValidationError) {
 *   for (const issue of error.issues) console.error(`${issue.path.join('.') || '(input)'}: ${issue.message}`);
 * }
 * ```
 */
export interface ValidationIssue {
  /**
   * Where the problem is, from the checked value: keys and array indexes, e.g. `['data', 0, 'id']`; empty
   * for the value itself. An unknown name's issue ends with the name.
   */
  readonly path: readonly (string | number)[];
  /** What is wrong, in words. */
  readonly message: string;
  /**
   * The kind of problem, e.g. `'invalid_type'`, `'too_big'`, `'unrecognized_keys'` (an unknown name) or
   * `'custom'` (any other rule of the SDK's). An open set: match the ones you handle and treat others alike.
   */
  readonly code: string;
}

/** What every error constructor of the SDK accepts. */
export interface CompanyDataErrorInit {
  /** HTTP status of the response, when there was one. */
  status?: number | undefined;
  /** The server's detail text (or the lead webhook's flat `error` text). */
  detail?: string | undefined;
  /** Response headers, when there was a response. */
  headers?: ResponseHeaders | undefined;
  /**
   * The response body: the parsed JSON when the response was JSON, else its text; leave it out when no
   * response was received.
   */
  body?: unknown;
  /** The underlying error (a socket error, an abort reason, ...). */
  cause?: unknown;
}

// One brand per realm-independent key: the ESM and CJS builds each define their own classes, so a plain
// prototype check fails when an error made by one build is tested against the other's class.
const KINDS = Symbol.for('@company-data/sdk:error-kinds');

interface Branded {
  [KINDS]?: unknown;
}

/**
 * The brands an error made by `type` carries: the kind of each class from `type` up to CompanyDataError,
 * its own first (a caller's subclass without a kind of its own adds none).
 */
function kindsOf(type: unknown): string[] {
  const kinds: string[] = [];
  for (let at = type; typeof at === 'function'; at = Object.getPrototypeOf(at)) {
    if (Object.hasOwn(at, 'kind')) kinds.push((at as typeof CompanyDataError).kind);
    if (at === CompanyDataError) break;
  }
  return kinds;
}

function hasBrand(type: { kind: string }, value: unknown): boolean {
  // A class without its own brand (a caller's subclass) falls back to the ordinary prototype check.
  if (!Object.hasOwn(type, 'kind')) return Function.prototype[Symbol.hasInstance].call(type, value);
  if (typeof value !== 'object' || value === null) return false;
  const kinds = (value as Branded)[KINDS];
  return Array.isArray(kinds) && kinds.includes(type.kind);
}

// Everything the errors share (the brand, the `name`, status, detail, headers, body and cause) is
// CompanyDataError's alone, made once in its constructor (with `kindsOf` and `hasBrand` above). A class
// whose code never varies names it in a static `code` and takes FixedCodeError's constructor; a class
// adds its own constructor only for what it alone carries (`reason`, `retryAfter`, `issues`) or a code
// that varies. Each class keeps its own `kind`: the brand `instanceof` reads, which a bundler's renaming
// cannot change.

/**
 * The root of every error the SDK throws. Catch it to handle anything that went wrong in a call.
 *
 * `instanceof` works across the package's ESM and CJS builds: each class recognises instances by a
 * brand shared through `Symbol.for`, not by prototype identity.
 *
 * @example
 * ```ts
 * try {
 *   await client.users.retrieve(id);
 * } catch (error) {
 *   if (error instanceof CompanyDataError) console.error(error.code, error.status, error.detail);
 *   else throw error;
 * }
 * ```
 */
export class CompanyDataError extends Error {
  /** The brand this class recognises its instances by; every subclass declares its own. */
  static readonly kind: string = 'CompanyDataError';

  /**
   * Recognises instances made by this class or a subclass, in either build of the package.
   *
   * @param value - anything.
   * @returns whether `value` is an instance of this error class.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class on the right of `instanceof`.
    return hasBrand(this, value);
  }

  /** A stable machine-readable code, e.g. `'not_found'`; never changes between versions. */
  readonly code: string;
  /** HTTP status of the response, or `undefined` when no response was received. */
  readonly status: number | undefined;
  /** The server's detail text, or `undefined`. */
  readonly detail: string | undefined;
  /** Response headers (empty when no response was received). */
  readonly headers: ResponseHeaders;
  /**
   * The body of the response the error was made from, for fields the SDK does not surface (or a proxy's
   * page): the parsed JSON when the response was JSON (by its `content-type`, or none) and parses,
   * otherwise its text (`''` for an empty body); `undefined` when no response was received (a connection
   * failure, a timeout, an abort, input refused before sending). On a 429, a 5xx or a connection error
   * that the SDK retried, it is the last attempt's body.
   *
   * @example
   * ```ts
   * try {
   *   await client.calls.retrieve(id);
   * } catch (error) {
   *   if (error instanceof NotFoundError) console.error(error.body); // { error: { detail: 'Not found.' } }
   * }
   * ```
   */
  readonly body: unknown;

  /**
   * @param code - the stable code.
   * @param message - a human-readable message.
   * @param init - status, detail, headers, body and cause.
   */
  constructor(code: string, message: string, init: CompanyDataErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    const kinds = kindsOf(new.target);
    Object.defineProperty(this, KINDS, { value: kinds });
    this.name = kinds[0] ?? 'CompanyDataError';
    this.code = code;
    this.status = init.status;
    this.detail = init.detail;
    this.headers = init.headers ?? {};
    this.body = init.body;
  }
}

/**
 * An error whose class alone sets its code (the class's static `code`): {@link BadRequestError},
 * {@link PermissionDeniedError}, {@link NotFoundError}, {@link ServerError}, {@link RequestAbortedError}
 * and {@link ClientClosedError}. Each is made from a message and the response's details; compare a code
 * with the class's `code` rather than a string literal.
 *
 * @example
 * ```ts
 * if (error instanceof CompanyDataError && error.code === NotFoundError.code) return undefined;
 * ```
 */
export abstract class FixedCodeError extends CompanyDataError {
  static override readonly kind: string = 'FixedCodeError';
  /** The stable code of every error of this class, e.g. `'not_found'` for {@link NotFoundError}. */
  static readonly code: string = 'company_data_error';

  /**
   * @param message - a human-readable message.
   * @param init - status, detail, headers, body and cause.
   */
  constructor(message: string, init?: CompanyDataErrorInit) {
    super((new.target as typeof FixedCodeError).code, message, init);
  }
}

/**
 * 400: the server rejected the request (an invalid query value, or a webhook body it refused).
 *
 * @example
 * ```ts
 * if (error instanceof BadRequestError) console.error('Rejected:', error.detail);
 * ```
 */
export class BadRequestError extends FixedCodeError {
  static override readonly code = 'bad_request';
  static override readonly kind: string = 'BadRequestError';
}

/** Why the server refused the API key: unknown/revoked, or past its expiry date. */
export type AuthenticationFailure = 'invalid_key' | 'expired_key';

/**
 * 401: the API key is missing, unknown, revoked (`reason: 'invalid_key'`, code `'invalid_api_key'`)
 * or expired (`reason: 'expired_key'`, code `'expired_api_key'`).
 *
 * @example
 * ```ts
 * if (error instanceof AuthenticationError && error.reason === 'expired_key') await rotateKey();
 * ```
 */
export class AuthenticationError extends CompanyDataError {
  static override readonly kind: string = 'AuthenticationError';
  /** Why the key was refused. */
  readonly reason: AuthenticationFailure;

  /**
   * @param reason - why the key was refused.
   * @param message - a human-readable message.
   * @param init - status, detail, headers and cause.
   */
  constructor(reason: AuthenticationFailure, message: string, init?: CompanyDataErrorInit) {
    super(reason === 'expired_key' ? 'expired_api_key' : 'invalid_api_key', message, init);
    this.reason = reason;
  }
}

/**
 * 403: the API key is valid but lacks the permission for this resource.
 *
 * @example
 * ```ts
 * if (error instanceof PermissionDeniedError) console.error('Ask an admin for the calls permission');
 * ```
 */
export class PermissionDeniedError extends FixedCodeError {
  static override readonly code = 'permission_denied';
  static override readonly kind: string = 'PermissionDeniedError';
}

/**
 * 404: no such record in your company (ids of other companies are not found either), or an unknown
 * or deleted webhook token.
 *
 * @example
 * ```ts
 * const user = await client.users.retrieve(id).catch((error) => {
 *   if (error instanceof NotFoundError) return undefined;
 *   throw error;
 * });
 * ```
 */
export class NotFoundError extends FixedCodeError {
  static override readonly code = 'not_found';
  static override readonly kind: string = 'NotFoundError';
}

/**
 * 429: the API throttled the client and the SDK did not (or could no longer) wait: the wait exceeded
 * `maxRetryWait`, the retries ran out, or an `onRateLimit` hook vetoed the wait.
 *
 * @example
 * ```ts
 * if (error instanceof RateLimitError) console.error(`Try again in ${error.retryAfter ?? '?'} s`);
 * ```
 */
export class RateLimitError extends CompanyDataError {
  static override readonly kind: string = 'RateLimitError';
  /** Seconds the server asked to wait (from `Retry-After` or the detail text), when it said. */
  readonly retryAfter: number | undefined;

  /**
   * @param message - a human-readable message.
   * @param retryAfter - seconds the server asked to wait, if known.
   * @param init - status, detail, headers and cause.
   */
  constructor(message: string, retryAfter: number | undefined, init?: CompanyDataErrorInit) {
    super('rate_limited', message, init);
    this.retryAfter = retryAfter;
  }
}

/**
 * 5xx: the server failed. Retried with backoff before being thrown.
 *
 * @example
 * ```ts
 * if (error instanceof ServerError) console.error('Server failed with', error.status);
 * ```
 */
export class ServerError extends FixedCodeError {
  static override readonly code = 'server_error';
  static override readonly kind: string = 'ServerError';
}

/**
 * No usable response: the connection was refused, reset or dropped. Retried with backoff before being
 * thrown. The original error is in `cause`.
 *
 * @example
 * ```ts
 * if (error instanceof ConnectionError) console.error('Network problem:', error.cause);
 * ```
 */
export class ConnectionError extends CompanyDataError {
  static override readonly kind: string = 'ConnectionError';

  /**
   * @param message - a human-readable message.
   * @param init - cause (and status/headers when a response was cut short).
   * @param code - the stable code; subclasses pass their own.
   */
  constructor(message: string, init?: CompanyDataErrorInit, code = 'connection_error') {
    super(code, message, init);
  }
}

/**
 * An attempt took longer than `timeout` ms. A kind of {@link ConnectionError}; retried like one.
 *
 * @example
 * ```ts
 * if (error instanceof TimeoutError) console.error('Gave up waiting for the server');
 * ```
 */
export class TimeoutError extends ConnectionError {
  static override readonly kind: string = 'TimeoutError';

  /**
   * @param message - a human-readable message.
   * @param init - cause.
   */
  constructor(message: string, init?: CompanyDataErrorInit) {
    super(message, init, 'timeout');
  }
}

/**
 * The caller's `signal` aborted the call. Never retried. The abort reason is in `cause`.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * setTimeout(() => controller.abort(), 1000);
 * await client.calls.list({}, { signal: controller.signal }).catch((error) => {
 *   if (!(error instanceof RequestAbortedError)) throw error;
 * });
 * ```
 */
export class RequestAbortedError extends FixedCodeError {
  static override readonly code = 'request_aborted';
  static override readonly kind: string = 'RequestAbortedError';
}

/**
 * A success response whose body is not valid JSON or does not match the contract's schema. The issues
 * say which fields were wrong, and `body` holds what was received. Pass `validate: false` to the client to skip the check.
 *
 * @example
 * ```ts
 * if (error instanceof InvalidResponseError) console.error(error.issues);
 * ```
 */
export class InvalidResponseError extends CompanyDataError {
  static override readonly kind: string = 'InvalidResponseError';
  /** What did not match the schema (empty when the body was not JSON). */
  readonly issues: readonly ValidationIssue[];

  /**
   * @param message - a human-readable message.
   * @param issues - what did not match.
   * @param init - status, headers, body and cause.
   */
  constructor(message: string, issues: readonly ValidationIssue[], init?: CompanyDataErrorInit) {
    super('invalid_response', message, init);
    this.issues = issues;
  }
}

/**
 * Your input was refused before any request was sent: a parameter out of range or unknown (the message
 * names the closest known one), an id that is not a uuid, a webhook body lacking its required fields or
 * carrying an undeclared one, or a webhook URL of the wrong kind. {@link ConfigurationError}, for client
 * and per-request options, is a kind of it. Never retried.
 *
 * @example
 * ```ts
 * await client.calls.list({ souce: 'voice_agent' } as never).catch((error) => {
 *   if (error instanceof ValidationError) console.error(error.message); // ... did you mean `source`? ...
 * });
 * ```
 */
export class ValidationError extends CompanyDataError {
  static override readonly kind: string = 'ValidationError';
  /** What was wrong (an `unrecognized_keys` issue per unknown name, its path ending with the name). */
  readonly issues: readonly ValidationIssue[];

  /**
   * @param message - a human-readable message saying how to fix the input.
   * @param issues - what was wrong.
   * @param code - the stable code; subclasses pass their own.
   */
  constructor(message: string, issues: readonly ValidationIssue[], code = 'validation_error') {
    super(code, message, { detail: message });
    this.issues = issues;
  }
}

/** Codes of {@link ConfigurationError}. */
export type ConfigurationErrorCode = 'missing_api_key' | 'missing_base_url' | 'invalid_option';

/**
 * The client is missing something a call needs (an API key, a base URL), or an option is invalid or
 * unknown: a client option (thrown by `new CompanyData()`) or a per-request option (thrown by the call,
 * before anything is sent). A kind of {@link ValidationError}: nothing was sent, and a retry cannot help.
 *
 * @example
 * ```ts
 * const client = new CompanyData({ baseURL: 'https://api.example.com/v1' }); // no key, no COMPANY_DATA_API_KEY
 * await client.users.list().catch((error) => {
 *   if (error instanceof ConfigurationError) console.error(error.code); // 'missing_api_key'
 * });
 * ```
 */
export class ConfigurationError extends ValidationError {
  static override readonly kind: string = 'ConfigurationError';

  /**
   * @param code - what is missing or wrong.
   * @param message - a human-readable message naming the option (and its environment variable) and the fix.
   * @param issues - what was wrong; by default one issue carrying the message.
   */
  constructor(
    code: ConfigurationErrorCode,
    message: string,
    issues: readonly ValidationIssue[] = [{ code: 'custom', message, path: [] }],
  ) {
    super(message, issues, code);
  }
}

/**
 * The client was closed with `close()` (by you, or through a client derived from it with `withOptions()`,
 * which shares its connection pool). Not a network failure: a retry cannot help, and it is deliberately no
 * {@link ConnectionError}. Create a new client, or close it only once you are done with it.
 *
 * @example
 * ```ts
 * await client.close();
 * await client.users.list().catch((error) => {
 *   if (error instanceof ClientClosedError) console.error(error.code); // 'client_closed'
 * });
 * ```
 */
export class ClientClosedError extends FixedCodeError {
  static override readonly code = 'client_closed';
  static override readonly kind: string = 'ClientClosedError';
}
