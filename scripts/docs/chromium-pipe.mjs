// Drives a headless Chromium through the DevTools protocol over a pipe (`--remote-debugging-pipe`: the
// browser reads commands on its file descriptor 3 and answers on 4, each message JSON ended by a NUL byte),
// so that a check can type into a page, as a reader does, without a browser-automation dependency.
import { spawn } from 'node:child_process';

/**
 * An open tab. The protocol's answers are JSON of the shape each method documents: `any` here, read by the
 * caller that knows the method.
 *
 * @typedef {object} Tab
 * @property {(method: string, params?: object) => Promise<any>} send
 * @property {(expression: string) => Promise<any>} evaluate
 * @property {(expression: string, what: string) => Promise<any>} waitFor
 * @property {() => Promise<void>} close
 */

/** @typedef {{ method: string, resolve: (value: any) => void, reject: (error: Error) => void }} Waiting */

/**
 * Starts the browser and opens one tab (a page target, attached in flat mode).
 *
 * @param {string} chromium the browser's executable.
 * @param {string[]} args its command-line flags (the pipe flag is added).
 * @param {{ timeoutMs: number }} options how long one command, or one wait, may take.
 * @returns {Promise<Tab>}
 */
export async function openTab(chromium, args, { timeoutMs }) {
  const browser = spawn(chromium, [...args, '--remote-debugging-pipe', 'about:blank'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
  });
  const [, , stderr, toBrowserPipe, fromBrowser] = browser.stdio;
  // The pipes exist: stdio asks for them.
  const toBrowser = /** @type {import('node:stream').Writable} */ (toBrowserPipe);
  let errors = '';
  stderr?.on('data', (chunk) => {
    errors = (errors + chunk).slice(-2000);
  });
  /** @type {Map<number, Waiting>} */
  const pending = new Map();
  let nextId = 1;
  let buffered = '';
  const failAll = (/** @type {Error} */ error) => {
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };
  browser.on('error', failAll);
  toBrowser.on('error', failAll);
  browser.on('exit', (code) =>
    failAll(new Error(`chromium exited (${code}): ${errors.trim().split('\n').at(-1)}`)),
  );
  fromBrowser?.on('data', (chunk) => {
    buffered += chunk;
    let end = buffered.indexOf('\0');
    while (end !== -1) {
      const message = JSON.parse(buffered.slice(0, end));
      buffered = buffered.slice(end + 1);
      end = buffered.indexOf('\0');
      const waiting = pending.get(message.id);
      if (!waiting) continue;
      pending.delete(message.id);
      if (message.error) waiting.reject(new Error(`${waiting.method}: ${message.error.message}`));
      else waiting.resolve(message.result);
    }
  });

  /**
   * @param {string} method
   * @param {object} [params]
   * @param {string} [sessionId]
   * @returns {Promise<any>}
   */
  const command = (method, params = {}, sessionId = undefined) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`${method}: no answer from chromium within ${timeoutMs} ms`));
      }, timeoutMs);
      pending.set(id, {
        method,
        resolve: (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      toBrowser.write(`${JSON.stringify({ id, method, params, sessionId })}\0`);
    });

  const exited = new Promise((resolve) => browser.on('close', resolve));
  // Waits for the browser to be gone, so that its profile folder can be removed.
  const close = async () => {
    const killer = setTimeout(() => browser.kill(), 5_000);
    if (browser.exitCode === null && browser.signalCode === null)
      await command('Browser.close').catch(() => browser.kill());
    await exited;
    clearTimeout(killer);
  };
  try {
    const { targetId } = await command('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await command('Target.attachToTarget', { targetId, flatten: true });
    /** @type {Tab['send']} */
    const send = (method, params) => command(method, params, sessionId);
    /** @type {Tab['evaluate']} */
    const evaluate = async (expression) => {
      const { result, exceptionDetails } = await send('Runtime.evaluate', {
        expression,
        returnByValue: true,
        awaitPromise: true,
      });
      if (exceptionDetails) throw new Error(`${expression}: ${exceptionDetails.exception?.description}`);
      return result.value;
    };
    /** @type {Tab['waitFor']} */
    const waitFor = async (expression, what) => {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const value = await evaluate(expression);
        if (value) return value;
        if (Date.now() > until) throw new Error(`waited ${timeoutMs} ms for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    return { send, evaluate, waitFor, close };
  } catch (error) {
    await close();
    throw error;
  }
}
