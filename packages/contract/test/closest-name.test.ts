import { describe, expect, it } from 'vitest';
import { closestName, editDistance } from '../src/closest-name.js';

describe('editDistance', () => {
  it.each([
    ['', '', 0],
    ['source', 'source', 0],
    ['souce', 'source', 1],
    ['soucre', 'source', 1],
    ['', 'abc', 3],
    ['kitten', 'sitting', 3],
  ])('%s → %s: %i', (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
    expect(editDistance(b, a)).toBe(distance);
  });
});

describe('closestName on realistic typos', () => {
  // The SDK's client options, in the order the SDK lists them.
  const options = [
    'timeout',
    'maxRetries',
    'maxRetryWait',
    'defaultHeaders',
    'logger',
    'logLevel',
    'validate',
    'onRateLimit',
    'onRetry',
    'random',
    'apiKey',
    'baseURL',
    'apiRoot',
    'dispatcher',
    'fetch',
    'sleep',
    'now',
  ];
  const params = ['ordering', 'page', 'page_size', 'source', 'is_active', 'search'];
  const flags = [
    '--seed',
    '--users',
    '--teams',
    '--port',
    '--host',
    '--fixture',
    '--freeze',
    '--json',
    '--log',
  ];
  const levels = ['debug', 'info', 'warn', 'error', 'off'];

  it.each([
    // Client options: a wrong ending, a missing word, another case or separator, a transposition.
    ['maxRetry', options, 'maxRetries'],
    ['maxRetrys', options, 'maxRetries'],
    ['max_retry', options, 'maxRetries'],
    ['retries', options, 'maxRetries'],
    ['maxRetryWaitMs', options, 'maxRetryWait'],
    ['retryWait', options, 'maxRetryWait'],
    ['timout', options, 'timeout'],
    ['timeoutMs', options, 'timeout'],
    ['baseUrl', options, 'baseURL'],
    ['base_url', options, 'baseURL'],
    ['apiRoute', options, 'apiRoot'],
    ['api_key', options, 'apiKey'],
    ['apikey', options, 'apiKey'],
    ['defaultHeader', options, 'defaultHeaders'],
    ['logLvl', options, 'logLevel'],
    ['onRatelimit', options, 'onRateLimit'],
    ['onRateLimited', options, 'onRateLimit'],
    ['onRate', options, 'onRateLimit'],
    ['dispatch', options, 'dispatcher'],
    ['valdiate', options, 'validate'],
    ['validation', options, 'validate'],
    // Query parameters.
    ['souce', params, 'source'],
    ['Source', params, 'source'],
    ['pagesize', params, 'page_size'],
    ['page-size', params, 'page_size'],
    ['pageSize', params, 'page_size'],
    ['odering', params, 'ordering'],
    ['order', params, 'ordering'],
    ['isActive', params, 'is_active'],
    ['active', params, 'is_active'],
    ['page_number', params, 'page'],
    ['phone', ['phone_number', 'customer_name'], 'phone_number'],
    // The mock server's flags.
    ['--prot', flags, '--port'],
    ['--fixtures', flags, '--fixture'],
    ['--fixure', flags, '--fixture'],
    ['--freze', flags, '--freeze'],
    ['--user', flags, '--users'],
    ['--hots', flags, '--host'],
    // Log levels.
    ['warning', levels, 'warn'],
    ['debg', levels, 'debug'],
    ['erorr', levels, 'error'],
  ])('%s → %s', (name, candidates, expected) => {
    expect(closestName(name, candidates)).toBe(expected);
  });

  it('suggests nothing when no name is close, or when several are equally close', () => {
    expect(closestName('colour', params)).toBeUndefined();
    expect(closestName('x', params)).toBeUndefined();
    expect(closestName('', params)).toBeUndefined();
    expect(closestName('sze', params)).toBeUndefined();
    expect(closestName('name', ['first_name', 'last_name'])).toBeUndefined();
    expect(closestName('pages', ['page_a', 'page_b'])).toBeUndefined();
    expect(closestName('anything', [])).toBeUndefined();
  });
});
