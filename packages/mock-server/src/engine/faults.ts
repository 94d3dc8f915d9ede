/**
 * A fault to inject into the next matching requests.
 *
 * @example
 * ```ts
 * server.injectFault({ path: '/v1/calls/', status: 503, times: 2 });
 * server.injectFault({ path: /\/transcript\/$/, drop: true });
 * ```
 */
export interface FaultSpec {
  /** Only requests with this method (default: any). */
  method?: string;
  /** Only this exact path (relative to the origin, e.g. `/v1/calls/`), or paths matching this pattern (default: any). */
  path?: string | RegExp;
  /** How many matching requests it applies to (default 1). */
  times?: number;
  /** Answer this status instead of the real response. */
  status?: number;
  /** Headers of the injected answer. */
  headers?: Record<string, string>;
  /** Body of the injected answer: a string is sent as-is, anything else as JSON (default `{error:{detail:'Injected fault.'}}`). */
  body?: unknown;
  /** Real milliseconds to wait before answering (for client timeout tests). */
  delayMs?: number;
  /** Destroy the connection instead of answering (the dispatcher reports a socket error). */
  drop?: boolean;
}

interface ArmedFault {
  readonly spec: FaultSpec;
  remaining: number;
}

/** Faults waiting for matching requests, first injected first applied. */
export class FaultQueue {
  #armed: ArmedFault[] = [];

  /** Number of faults still armed. */
  get size(): number {
    return this.#armed.length;
  }

  /**
   * Arms a fault.
   *
   * @throws RangeError for a non-positive `times`, a negative `delayMs` or a status outside 100–599.
   */
  add(spec: FaultSpec): void {
    const times = spec.times ?? 1;
    if (!Number.isInteger(times) || times < 1) throw new RangeError('fault.times must be an integer ≥ 1');
    if (spec.delayMs !== undefined && !(spec.delayMs >= 0)) throw new RangeError('fault.delayMs must be ≥ 0');
    if (
      spec.status !== undefined &&
      !(Number.isInteger(spec.status) && spec.status >= 100 && spec.status <= 599)
    )
      throw new RangeError('fault.status must be an HTTP status (100–599)');
    this.#armed.push({ spec: { ...spec, method: spec.method?.toUpperCase() }, remaining: times });
  }

  /** Disarms every fault. */
  clear(): void {
    this.#armed = [];
  }

  /** The first fault matching the request, counted as used; undefined when none matches. */
  take(method: string, path: string): FaultSpec | undefined {
    const index = this.#armed.findIndex(({ spec }) => matches(spec, method, path));
    if (index < 0) return undefined;
    const armed = this.#armed[index] as ArmedFault;
    armed.remaining--;
    if (armed.remaining === 0) this.#armed.splice(index, 1);
    return armed.spec;
  }
}

function matches(spec: FaultSpec, method: string, path: string): boolean {
  if (spec.method !== undefined && spec.method !== method) return false;
  if (spec.path === undefined) return true;
  if (typeof spec.path === 'string') return spec.path === path;
  spec.path.lastIndex = 0;
  return spec.path.test(path);
}
