import { AsyncLocalStorage } from 'node:async_hooks';
import diagnostics_channel from 'node:diagnostics_channel';
import { describe, expect, it } from 'vitest';
import { listened, type TracingChannelLike, traced } from '../../../src/core/telemetry/traced-work.js';
import { RequestAbortedError, ServerError, type TracedError } from '../../../src/index.js';

// How the SDK publishes one piece of work: the order of the events, the store bound to `start` active for
// the work, what a failure and an abort say, and how a runtime's channel tells that anything listens.

/** A channel of a tracing channel, as Bun's and Node's have them: only whether it is listened to matters here. */
const channel = (hasSubscribers: boolean) => ({
  hasSubscribers,
  publish() {},
  runStores: () => undefined as never,
});

describe('whether anything listens to a tracing channel', () => {
  it("reads the tracing channel's own hasSubscribers where it has one (Node, Deno)", () => {
    const quiet = channel(false);
    const base = { start: quiet, end: quiet, asyncStart: quiet, asyncEnd: quiet, error: quiet };
    expect(listened({ ...base, hasSubscribers: true })).toBe(true);
    expect(listened({ ...base, start: channel(true), hasSubscribers: false })).toBe(false);
  });

  it('reads its five channels where it has none (Bun): any one listened to is enough', () => {
    const quiet = channel(false);
    const bunLike: TracingChannelLike = {
      start: quiet,
      end: quiet,
      asyncStart: quiet,
      asyncEnd: quiet,
      error: quiet,
    };
    expect(listened(bunLike)).toBe(false);
    for (const name of ['start', 'end', 'asyncStart', 'asyncEnd', 'error'] as const) {
      expect(listened({ ...bunLike, [name]: channel(true) }), name).toBe(true);
    }
  });
});

describe('one piece of work, traced', () => {
  const tracing = diagnostics_channel.tracingChannel<
    string,
    { label: string; outcome?: string; error?: TracedError }
  >('company-data-test:work');

  /** Subscribes to every event and binds a store to `start`; returns what happened and how to stop. */
  function record() {
    const store = new AsyncLocalStorage<string>();
    const events: string[] = [];
    const at = (event: string) => (context: { label: string; outcome?: string; error?: TracedError }) => {
      events.push(
        `${event} ${context.label} store=${store.getStore()} ${context.outcome ?? ''} ${context.error?.message ?? ''}`.trim(),
      );
    };
    const handlers = {
      start: at('start'),
      end: at('end'),
      asyncStart: at('asyncStart'),
      asyncEnd: at('asyncEnd'),
      error: at('error'),
    };
    tracing.start.bindStore(store, (context) => context.label);
    tracing.subscribe(handlers);
    return {
      events,
      store,
      stop: () => {
        tracing.unsubscribe(handlers);
        tracing.start.unbindStore(store);
      },
    };
  }

  it('publishes start, end, then asyncStart and asyncEnd, the store active for the work and never a result', async () => {
    const recorder = record();
    try {
      const context = { label: 'w', operation: 'listCalls', method: 'GET' as const, urlTemplate: '/calls/' };
      const value = await traced(tracing as unknown as TracingChannelLike, context, async () => {
        await new Promise((resolve) => setImmediate(resolve));
        recorder.events.push(`work store=${recorder.store.getStore()}`);
        return 'the response';
      });
      expect(value).toBe('the response');
      expect(recorder.events).toEqual([
        'start w store=w',
        'end w store=w',
        'work store=w',
        'asyncStart w store=w ok',
        'asyncEnd w store=w ok',
      ]);
      expect(Object.keys(context).sort()).toEqual(['label', 'method', 'operation', 'outcome', 'urlTemplate']);
    } finally {
      recorder.stop();
    }
  });

  it('a failure publishes error with a TracedError of its code and status, never its message', async () => {
    const recorder = record();
    try {
      const failure = new ServerError('503 oops (GET https://api.example.com/v1/calls/?q=secret)', {
        status: 503,
      });
      const context = { label: 'f', operation: 'listCalls', method: 'GET' as const, urlTemplate: '/calls/' };
      await expect(
        traced(tracing as unknown as TracingChannelLike, context, () => Promise.reject(failure)),
      ).rejects.toBe(failure);
      expect(recorder.events).toEqual([
        'start f store=f',
        'end f store=f',
        'error f store=f error server_error (HTTP 503)',
        'asyncStart f store=f error server_error (HTTP 503)',
        'asyncEnd f store=f error server_error (HTTP 503)',
      ]);
      const { error } = context as { error?: TracedError };
      expect([error?.name, error?.code, error?.status, error?.message]).toEqual([
        'ServerError',
        'server_error',
        503,
        'server_error (HTTP 503)',
      ]);
      expect(error?.stack?.split('\n')[0]).toBe('ServerError: server_error (HTTP 503)');
      expect(error).toBeInstanceOf(Error);
    } finally {
      recorder.stop();
    }
  });

  it('an abort is stopped, with no error event', async () => {
    const recorder = record();
    try {
      const context = { label: 'a', operation: 'listCalls', method: 'GET' as const, urlTemplate: '/calls/' };
      const abort = new RequestAbortedError('Request aborted');
      await expect(
        traced(tracing as unknown as TracingChannelLike, context, () => Promise.reject(abort)),
      ).rejects.toBe(abort);
      expect(recorder.events).toEqual([
        'start a store=a',
        'end a store=a',
        'asyncStart a store=a stopped',
        'asyncEnd a store=a stopped',
      ]);
    } finally {
      recorder.stop();
    }
  });
});
