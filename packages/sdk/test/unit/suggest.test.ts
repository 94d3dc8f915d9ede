import { describe, expect, it } from 'vitest';
import { closestName, editDistance } from '../../src/suggest.js';

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

describe('closestName', () => {
  const params = ['ordering', 'page', 'page_size', 'source'];

  it.each([
    ['souce', params, 'source'],
    ['Source', params, 'source'],
    ['pagesize', params, 'page_size'],
    ['page-size', params, 'page_size'],
    ['odering', params, 'ordering'],
    ['isActive', ['is_active', 'page'], 'is_active'],
    ['timout', ['timeout', 'maxRetries'], 'timeout'],
    ['apikey', ['apiKey', 'baseURL'], 'apiKey'],
    ['base_url', ['apiKey', 'baseURL'], 'baseURL'],
    ['phone', ['phone_number', 'customer_name'], 'phone_number'],
    ['retries', ['timeout', 'maxRetries'], 'maxRetries'],
    ['warning', ['debug', 'info', 'warn', 'error', 'off'], 'warn'],
    ['page_number', params, 'page'],
  ])('%s → %s', (name, candidates, expected) => {
    expect(closestName(name, candidates)).toBe(expected);
  });

  it('suggests nothing when no name is close, or when several contain it', () => {
    expect(closestName('colour', params)).toBeUndefined();
    expect(closestName('x', params)).toBeUndefined();
    expect(closestName('sze', params)).toBeUndefined();
    expect(closestName('name', ['first_name', 'last_name'])).toBeUndefined();
    expect(closestName('anything', [])).toBeUndefined();
  });
});
