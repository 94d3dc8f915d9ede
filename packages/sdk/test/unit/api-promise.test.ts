import { describe, expect, it } from 'vitest';
import { APIPromise } from '../../src/index.js';

const response = { status: 201, headers: { 'x-a': '1' } };

describe('APIPromise', () => {
  it('awaits to the data and exposes the response through withResponse()', async () => {
    const promise = new APIPromise(Promise.resolve({ data: { id: 1 }, response }));
    await expect(promise).resolves.toEqual({ id: 1 });
    await expect(promise.withResponse()).resolves.toEqual({ data: { id: 1 }, response });
    expect(Object.prototype.toString.call(promise)).toBe('[object APIPromise]');
  });

  it('supports catch and finally like a promise', async () => {
    const failing = new APIPromise<number>(Promise.reject(new Error('nope')));
    await expect(failing.catch((error) => (error as Error).message)).resolves.toBe('nope');
    let settled = false;
    await expect(
      new APIPromise(Promise.resolve({ data: 2, response })).finally(() => {
        settled = true;
      }),
    ).resolves.toBe(2);
    expect(settled).toBe(true);
  });
});
