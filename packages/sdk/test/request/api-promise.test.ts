import { endpoints } from '@company-data/contract';
import { describe, expect, it, vi } from 'vitest';
import { APIPromise } from '../../src/index.js';
import type { AnsweredCall } from '../../src/request/call-request.js';

const url = 'https://api.example.com/v1/teams/';
const answered: AnsweredCall = {
  call: { endpoint: endpoints.listTeams, url, shownUrl: url },
  response: { status: 201, headers: { 'x-a': '1' }, body: '{"id":1}' },
};
const readJson = (sent: AnsweredCall) => ({
  data: JSON.parse(sent.response.body) as { id: number },
  response: { status: sent.response.status, headers: sent.response.headers },
});

describe('APIPromise', () => {
  it('awaits to the data and exposes the response through withResponse(), reading the body once', async () => {
    const parse = vi.fn(readJson);
    const promise = new APIPromise(Promise.resolve(answered), parse);
    await expect(promise).resolves.toEqual({ id: 1 });
    await expect(promise.withResponse()).resolves.toEqual({
      data: { id: 1 },
      response: { status: 201, headers: { 'x-a': '1' } },
    });
    expect(parse).toHaveBeenCalledOnce();
    expect(Object.prototype.toString.call(promise)).toBe('[object APIPromise]');
  });

  it('gives the raw response through asResponse(), without reading it', async () => {
    const parse = vi.fn(readJson);
    const raw = await new APIPromise(Promise.resolve(answered), parse).asResponse();
    expect(raw).toBeInstanceOf(Response);
    expect(raw.status).toBe(201);
    expect(raw.headers.get('x-a')).toBe('1');
    expect(await raw.text()).toBe('{"id":1}');
    expect(parse).not.toHaveBeenCalled();
  });

  it('reads the body once whichever comes first, await or withResponse(), and a failed read rejects each', async () => {
    const parse = vi.fn(readJson);
    const promise = new APIPromise(Promise.resolve(answered), parse);
    await expect(promise.withResponse()).resolves.toMatchObject({ data: { id: 1 } });
    await expect(promise).resolves.toEqual({ id: 1 });
    expect(parse).toHaveBeenCalledOnce();
    const refuse = vi.fn((): never => {
      throw new Error('not JSON');
    });
    const failing = new APIPromise(Promise.resolve(answered), refuse);
    const onrejected = vi.fn((error: unknown) => (error as Error).message);
    await expect(failing.then(undefined, onrejected)).resolves.toBe('not JSON');
    await expect(failing).rejects.toThrow('not JSON');
    await expect(failing.withResponse()).rejects.toThrow('not JSON');
    expect(onrejected).toHaveBeenCalledOnce();
    expect(refuse).toHaveBeenCalledOnce();
  });

  it('supports catch and finally like a promise', async () => {
    const failing = new APIPromise<number>(Promise.reject(new Error('nope')), () => {
      throw new Error('never read');
    });
    await expect(failing.catch((error) => (error as Error).message)).resolves.toBe('nope');
    let settled = false;
    await expect(
      new APIPromise(Promise.resolve(answered), readJson).finally(() => {
        settled = true;
      }),
    ).resolves.toEqual({ id: 1 });
    expect(settled).toBe(true);
  });
});
