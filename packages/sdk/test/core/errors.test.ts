import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  BadRequestError,
  ClientClosedError,
  CompanyDataError,
  ConfigurationError,
  ConnectionError,
  FixedCodeError,
  InvalidResponseError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RequestAbortedError,
  ServerError,
  TimeoutError,
  ValidationError,
} from '../../src/index.js';
import { errorDetail, errorFromResponse } from '../../src/request/error-from-response.js';

const response = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
  status,
  headers,
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

describe('error classes', () => {
  it('give every class a stable code, its name, and the root class', () => {
    const cases: [CompanyDataError, string, string][] = [
      [new BadRequestError('m'), 'bad_request', 'BadRequestError'],
      [new AuthenticationError('invalid_key', 'm'), 'invalid_api_key', 'AuthenticationError'],
      [new AuthenticationError('expired_key', 'm'), 'expired_api_key', 'AuthenticationError'],
      [new PermissionDeniedError('m'), 'permission_denied', 'PermissionDeniedError'],
      [new NotFoundError('m'), 'not_found', 'NotFoundError'],
      [new RateLimitError('m', 3), 'rate_limited', 'RateLimitError'],
      [new ServerError('m'), 'server_error', 'ServerError'],
      [new ConnectionError('m'), 'connection_error', 'ConnectionError'],
      [new TimeoutError('m'), 'timeout', 'TimeoutError'],
      [new RequestAbortedError('m'), 'request_aborted', 'RequestAbortedError'],
      [new InvalidResponseError('m', []), 'invalid_response', 'InvalidResponseError'],
      [new ValidationError('m', []), 'validation_error', 'ValidationError'],
      [new ConfigurationError('missing_api_key', 'm'), 'missing_api_key', 'ConfigurationError'],
    ];
    for (const [error, code, name] of cases) {
      expect(error).toBeInstanceOf(CompanyDataError);
      expect(error).toBeInstanceOf(Error);
      expect(error.code).toBe(code);
      expect(error.name).toBe(name);
      expect(error.headers).toEqual({});
    }
    expect(new TimeoutError('m')).toBeInstanceOf(ConnectionError);
    expect(new ConnectionError('m')).not.toBeInstanceOf(TimeoutError);
    expect(new NotFoundError('m')).not.toBeInstanceOf(RateLimitError);
  });

  it('names a fixed code on the class, the code each of its errors carries', () => {
    const cases: [typeof FixedCodeError, FixedCodeError, string][] = [
      [BadRequestError, new BadRequestError('m'), 'bad_request'],
      [PermissionDeniedError, new PermissionDeniedError('m'), 'permission_denied'],
      [NotFoundError, new NotFoundError('m'), 'not_found'],
      [ServerError, new ServerError('m'), 'server_error'],
      [RequestAbortedError, new RequestAbortedError('m'), 'request_aborted'],
      [ClientClosedError, new ClientClosedError('m'), 'client_closed'],
    ];
    for (const [type, error, code] of cases) {
      expect(type.code).toBe(code);
      expect(error.code).toBe(code);
      expect(error).toBeInstanceOf(FixedCodeError);
      expect(error.name).toBe(type.name);
    }
    // A caller's subclass without a kind of its own keeps its parent's code and name.
    class GoneError extends NotFoundError {}
    expect(new GoneError('m', { status: 410 })).toMatchObject({
      code: 'not_found',
      name: 'NotFoundError',
      status: 410,
    });
    // Errors whose code varies or which carry more are no FixedCodeError.
    expect(new RateLimitError('m', 1)).not.toBeInstanceOf(FixedCodeError);
    expect(new ConnectionError('m')).not.toBeInstanceOf(FixedCodeError);
  });

  it('recognises instances by brand, so a copy of the class from the other build matches', () => {
    // What the CJS build's NotFoundError looks like from the ESM build: another class, the same brand.
    const foreign = Object.defineProperty(new Error('x'), Symbol.for('@company-data/sdk:error-kinds'), {
      value: ['NotFoundError', 'CompanyDataError'],
    });
    expect(foreign instanceof NotFoundError).toBe(true);
    expect(foreign instanceof CompanyDataError).toBe(true);
    expect(foreign instanceof RateLimitError).toBe(false);
    expect(CompanyDataError[Symbol.hasInstance](null)).toBe(false);
    expect(new Error('plain') instanceof CompanyDataError).toBe(false);
  });

  it("keeps plain prototype checks for a caller's own subclasses", () => {
    class MyError extends NotFoundError {}
    expect(new MyError('m')).toBeInstanceOf(MyError);
    expect(new MyError('m')).toBeInstanceOf(NotFoundError);
    expect(new NotFoundError('m')).not.toBeInstanceOf(MyError);
  });

  it('carries cause, status, detail and headers', () => {
    const cause = new Error('socket hang up');
    const error = new ServerError('m', { status: 503, detail: 'down', headers: { a: 'b' }, cause });
    expect(error).toMatchObject({ status: 503, detail: 'down', headers: { a: 'b' }, cause });
  });
});

describe('errorFromResponse', () => {
  it('maps each status to its class, nested and flat bodies alike', () => {
    expect(errorFromResponse(response(400, { error: { detail: 'bad page' } }), 'GET /x/')).toBeInstanceOf(
      BadRequestError,
    );
    const flat = errorFromResponse(response(400, { error: 'phone_number is required' }), 'POST /lead/');
    expect(flat).toBeInstanceOf(BadRequestError);
    expect(flat.detail).toBe('phone_number is required');
    const expired = errorFromResponse(
      response(401, { error: { detail: 'API key has expired.' } }),
      'GET /x/',
    );
    expect(expired).toMatchObject({ reason: 'expired_key', code: 'expired_api_key', status: 401 });
    const invalid = errorFromResponse(response(401, { error: { detail: 'Invalid API key.' } }), 'GET /x/');
    expect(invalid).toMatchObject({ reason: 'invalid_key', code: 'invalid_api_key' });
    expect(errorFromResponse(response(403, {}), 'GET /x/')).toBeInstanceOf(PermissionDeniedError);
    expect(errorFromResponse(response(404, { error: 'Not found' }), 'GET /x/')).toMatchObject({
      detail: 'Not found',
    });
    expect(errorFromResponse(response(429, {}), 'GET /x/', 4)).toMatchObject({ retryAfter: 4 });
    expect(errorFromResponse(response(502, 'Bad gateway'), 'GET /x/')).toMatchObject({
      code: 'server_error',
      detail: 'Bad gateway',
      message: '502 Bad gateway (GET /x/)',
    });
    expect(errorFromResponse(response(409, ''), 'GET /x/')).toMatchObject({
      code: 'unexpected_status',
      detail: undefined,
    });
  });

  it('reads details defensively', () => {
    expect(errorDetail('{"error":{"detail":"Not found."}}')).toBe('Not found.');
    expect(errorDetail('{"error":"Not found"}')).toBe('Not found');
    expect(errorDetail('{"message":"other"}')).toBeUndefined();
    expect(errorDetail('   ')).toBeUndefined();
    expect(errorDetail('x'.repeat(500))).toHaveLength(200);
  });
});
