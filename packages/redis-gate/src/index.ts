// The public API of @company-data/redis-gate; its README heads the package's page on the docs site.
import { createHash, randomUUID } from 'node:crypto';
import {
  ConfigurationError,
  DEFAULT_QUOTA_MARGIN_MS,
  type Logger,
  RateGate,
  type RateGateContext,
  type RateGateLike,
  type RateQuota,
  SlidingWindowSlots,
} from '@company-data/sdk';
import { Redis, type RedisOptions } from 'ioredis';
import { PAUSE_SCRIPT, RESERVE_SCRIPT } from './scripts.js';

/**
 * Options of `new RedisRateGate()`. Every one is optional.
 *
 * @example
 * ```ts
 * const options: RedisRateGateOptions = {
 *   redis: process.env.REDIS_URL,
 *   name: 'exports',
 *   quota: { requests: 100, perSeconds: 60 },
 * };
 * ```
 */
export interface RedisRateGateOptions {
  /**
   * Where Redis is: a URL (`redis://user:password@host:6379/0`, `rediss://` for TLS) or ioredis options.
   * The gate sets its own time limits, offline queue and reconnection on top. Default:
   * `redis://127.0.0.1:6379`.
   */
  redis?: string | RedisOptions | undefined;
  /**
   * The gate's name: processes that give the same name share one gate (and one quota). Default: derived
   * from the API key of the first client given the gate, by a hash that does not reveal the key
   * ({@link defaultGateName}), so every process using the key shares it.
   */
  name?: string | undefined;
  /**
   * A quota every process sharing the gate stays under together, e.g. `{ requests: 100, perSeconds: 60 }`
   * (a sliding window kept in Redis). Default: none; a 429's pause is shared either way.
   */
  quota?: RateQuota | undefined;
  /**
   * The longest wait for Redis, in ms: to connect, and for each command. Past it, the process uses its
   * own gate until Redis answers again. Default: {@link DEFAULT_REDIS_TIMEOUT_MS}.
   */
  timeoutMs?: number | undefined;
}

/** The default {@link RedisRateGateOptions.timeoutMs}: how long a request may wait for Redis, at most. */
export const DEFAULT_REDIS_TIMEOUT_MS = 1_000;

/** Where Redis is when no `redis` option is given. */
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

/** The longest a reconnection attempt waits after the previous one, in ms. */
const MAX_RECONNECT_DELAY_MS = 2_000;

/**
 * The name a gate takes by default: `key-` and the first 16 hex digits of the key's SHA-256, the same in
 * every process using the key, and no help to anyone trying to learn the key.
 *
 * @param apiKey - the API key.
 * @returns the name.
 * @example
 * ```ts
 * defaultGateName('svc_live_abc'); // 'key-…' (16 hex digits)
 * ```
 */
export function defaultGateName(apiKey: string): string {
  return `key-${createHash('sha256').update(apiKey).digest('hex').slice(0, 16)}`;
}

/** The ioredis connection, with the gate's two scripts defined on it. */
type GateRedis = Redis & {
  companyDataReserve(key: string, requests: number, windowMs: number, member: string): Promise<number>;
  companyDataPause(key: string, ms: number, message: string, channel: string): Promise<number>;
};

/** The Redis keys of one gate; the `{name}` hash tag keeps them in one slot of a Redis Cluster. */
function keysOf(name: string) {
  const prefix = `company-data:{${name}}`;
  return { pause: `${prefix}:pause`, log: `${prefix}:log`, channel: `${prefix}:pauses` };
}

/**
 * A rate gate shared through Redis by every process (and machine) that uses one API key: give it to each
 * client in the `gate` option. A 429 seen by any process pauses them all, broadcast (pub/sub) and stored
 * (a key that expires with the pause) so that a process starting during a pause waits too; with a
 * `quota`, the processes together stay under it (a sliding-window log in Redis, on Redis's clock).
 *
 * Redis is never in the way: when it cannot be reached (within `timeoutMs`, to connect or for a command),
 * the process falls back to a gate of its own (with the same quota, kept in the process), says so once
 * through the client's logger, and shares the gate again once Redis answers. A call never fails, and
 * never waits longer than `timeoutMs`, because of Redis.
 *
 * One gate serves one key. The client does not close a gate it was given: close it yourself, after the
 * clients, so its connections end.
 *
 * @example
 * ```ts
 * import { CompanyData } from '@company-data/sdk';
 * import { RedisRateGate } from '@company-data/redis-gate';
 *
 * const gate = new RedisRateGate({ redis: process.env.REDIS_URL, quota: { requests: 100, perSeconds: 60 } });
 * const client = new CompanyData({ gate });
 * try {
 *   for await (const call of client.calls.list()) console.log(call.id);
 * } finally {
 *   await client.close();
 *   await gate.close();
 * }
 * ```
 */
export class RedisRateGate implements RateGateLike {
  readonly #options: RedisRateGateOptions;
  readonly #timeoutMs: number;
  /** Tells this process's broadcasts from the others'. */
  readonly #id = randomUUID();
  readonly #local: RateGate;
  readonly #fallbackSlots: SlidingWindowSlots | undefined;
  readonly #quota: RateQuota | undefined;
  #slot = 0;
  #name: string | undefined;
  #logger: Logger = console;
  #attached = false;
  #commands: GateRedis | undefined;
  #subscriber: Redis | undefined;
  #starting: Promise<void> | undefined;
  #synced: (() => void) | undefined;
  #shared = false;
  #announcedDown = false;
  #closed = false;

  /**
   * Creates the gate. Nothing connects until a client adopts it (or it is first waited on).
   *
   * @param options - see {@link RedisRateGateOptions}; all optional.
   * @throws ConfigurationError with code `'invalid_option'` for an empty name, a `timeoutMs` that is not
   * a positive number, or a quota that is not one.
   */
  constructor(options: RedisRateGateOptions = {}) {
    const { name, quota, timeoutMs } = options;
    if (name !== undefined && (typeof name !== 'string' || name === '')) {
      throw new ConfigurationError('invalid_option', 'RedisRateGate: `name` must be a non-empty string.');
    }
    if (timeoutMs !== undefined && !(typeof timeoutMs === 'number' && timeoutMs > 0)) {
      throw new ConfigurationError('invalid_option', 'RedisRateGate: `timeoutMs` must be a number above 0.');
    }
    this.#options = options;
    this.#timeoutMs = timeoutMs ?? DEFAULT_REDIS_TIMEOUT_MS;
    this.#quota = quota;
    this.#fallbackSlots = quota === undefined ? undefined : new SlidingWindowSlots(quota);
    this.#local = new RateGate({
      quota: quota === undefined ? undefined : { reserve: () => this.#reserve() },
    });
  }

  /** The gate's name, once known (given, or derived when a client adopts the gate). */
  get name(): string | undefined {
    return this.#name ?? this.#options.name;
  }

  /** Whether the gate is shared through Redis right now (false before connecting and while Redis is away). */
  get shared(): boolean {
    return this.#shared;
  }

  /**
   * Adopted by a client (the SDK calls this): takes the client's logger and, without a `name`, the name
   * derived from its key; then connects. Later clients share the gate as it is.
   *
   * @param context - the client's key and logger.
   */
  attach(context: RateGateContext): void {
    if (!this.#attached) {
      this.#attached = true;
      this.#logger = context.logger;
      this.#name ??= this.#options.name ?? defaultGateName(context.apiKey ?? '');
    }
    this.#start();
  }

  /**
   * Resolves once a request may be sent: no pause in force (this process's or, through Redis, any
   * other's) and, with a quota, a slot taken. The first call waits for the connection, at most
   * `timeoutMs`.
   *
   * @param signal - rejects the wait with `onAbort()` when it aborts.
   * @param onAbort - the error to reject with.
   * @throws whatever `onAbort()` returns, when `signal` aborts.
   */
  async wait(signal: AbortSignal | undefined, onAbort: () => Error): Promise<void> {
    if (this.#commands === undefined) this.#start();
    if (this.#starting !== undefined) await this.#starting;
    return this.#local.wait(signal, onAbort);
  }

  /**
   * A 429 asked to wait `ms`: pauses this process at once and, through Redis, every other one sharing
   * the gate (and any that joins before the pause ends).
   *
   * @param ms - how long every request waits.
   */
  pause(ms: number): void {
    this.#local.pause(ms);
    const commands = this.#commands;
    if (!this.#shared || commands === undefined) return;
    const { pause, channel } = keysOf(this.#gateName());
    const message = JSON.stringify({ from: this.#id, ms });
    commands.companyDataPause(pause, ms, message, channel).catch((error: unknown) => this.#down(error));
  }

  /**
   * Ends the gate in this process: closes its Redis connections and ends any pause or wait for a slot.
   * A pause already broadcast goes on for the other processes. Idempotent.
   *
   * @returns once the connections are closed.
   */
  async close(): Promise<void> {
    this.#closed = true;
    this.#shared = false;
    this.#local.close();
    this.#synced?.();
    this.#commands?.disconnect();
    this.#subscriber?.disconnect();
  }

  #gateName(): string {
    this.#name ??= this.#options.name ?? 'default';
    return this.#name;
  }

  #start(): void {
    if (this.#commands !== undefined || this.#closed) return;
    const keys = keysOf(this.#gateName());
    const given = this.#options.redis ?? DEFAULT_REDIS_URL;
    const options: RedisOptions = {
      ...(typeof given === 'string' ? {} : given),
      lazyConnect: true,
      connectTimeout: this.#timeoutMs,
      commandTimeout: this.#timeoutMs,
      // A command fails at once while Redis is away (the gate falls back) instead of queueing.
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      retryStrategy: (attempt: number) => Math.min(attempt * 250, MAX_RECONNECT_DELAY_MS),
    };
    const commands = (
      typeof given === 'string' ? new Redis(given, options) : new Redis(options)
    ) as GateRedis;
    commands.defineCommand('companyDataReserve', { numberOfKeys: 1, lua: RESERVE_SCRIPT });
    commands.defineCommand('companyDataPause', { numberOfKeys: 1, lua: PAUSE_SCRIPT });
    const subscriber = commands.duplicate();
    this.#commands = commands;
    this.#subscriber = subscriber;
    commands.on('error', (error: unknown) => this.#down(error));
    commands.on('close', () => this.#down(new Error('connection closed')));
    commands.on('ready', () => void this.#sync(commands, keys.pause));
    // The subscriber's errors are the command connection's too; ioredis reconnects both.
    subscriber.on('error', () => undefined);
    subscriber.on('ready', () => void subscriber.subscribe(keys.channel).catch(() => undefined));
    subscriber.on('message', (_channel: string, message: string) => this.#heard(message));

    const timeoutMs = this.#timeoutMs;
    this.#starting = new Promise<void>((resolve) => {
      const timer = setTimeout(done, timeoutMs);
      this.#synced = done;
      function done() {
        clearTimeout(timer);
        resolve();
      }
      commands.connect().catch(done);
      subscriber.connect().catch(() => undefined);
    }).then(() => {
      this.#starting = undefined;
      this.#synced = undefined;
      if (!this.#shared) this.#down(new Error(`no answer within ${timeoutMs} ms`));
    });
  }

  /** Connected (again): respect a pause in force, then share the gate. */
  async #sync(commands: GateRedis, pauseKey: string): Promise<void> {
    try {
      const left = await commands.pttl(pauseKey);
      if (left > 0) this.#local.pause(left);
      this.#shared = !this.#closed;
      if (this.#announcedDown && this.#shared) {
        this.#announcedDown = false;
        this.#logger.info(
          `company-data shared gate "${this.#name}": Redis is back, the gate is shared again`,
        );
      }
    } catch (error) {
      this.#down(error);
    } finally {
      this.#synced?.();
    }
  }

  /** Redis went away: fall back to this process's own gate, and say so once per outage. */
  #down(error: unknown): void {
    this.#shared = false;
    if (this.#announcedDown || this.#closed) return;
    this.#announcedDown = true;
    const reason = error instanceof Error ? error.message : String(error);
    this.#logger.warn(
      `company-data shared gate "${this.#gateName()}": Redis unreachable (${reason}); this process keeps its own gate${this.#quota ? ' and quota' : ''} until Redis is back`,
      { gate: this.#gateName(), reason },
    );
  }

  /** Another process's pause. */
  #heard(message: string): void {
    try {
      const { from, ms } = JSON.parse(message) as { from?: unknown; ms?: unknown };
      if (from !== this.#id && typeof ms === 'number' && ms > 0) this.#local.pause(ms);
    } catch {
      // Not one of ours: ignored.
    }
  }

  /** A slot of the shared quota, or of this process's own while Redis is away. */
  async #reserve(): Promise<number> {
    const commands = this.#commands;
    const quota = this.#quota as RateQuota;
    if (this.#shared && commands !== undefined) {
      const windowMs = quota.perSeconds * 1000 + (quota.marginMs ?? DEFAULT_QUOTA_MARGIN_MS);
      const member = `${this.#id}:${++this.#slot}`;
      try {
        return Number(
          await commands.companyDataReserve(keysOf(this.#gateName()).log, quota.requests, windowMs, member),
        );
      } catch (error) {
        this.#down(error);
      }
    }
    return (this.#fallbackSlots as SlidingWindowSlots).reserve();
  }
}
