import { AsyncLocalStorage } from 'node:async_hooks';
import diagnostics_channel from 'node:diagnostics_channel';
import { TRACING_CHANNELS, type TracingContext } from '../../src/index.js';

/** The SDK's tracing channels, by kind. */
export type Kind = keyof typeof TRACING_CHANNELS;
const KINDS = Object.keys(TRACING_CHANNELS) as Kind[];
const EVENTS = ['start', 'end', 'asyncStart', 'asyncEnd', 'error'] as const;

/** Every field a context of any channel may carry. */
type AnyContext = TracingContext & {
  page?: number;
  attempt?: number;
  attempts?: number;
  status?: number;
  hedge?: string;
  pages?: number;
};

/**
 * A piece of work as a short label: `walk`, `sync`, `p3` (page 3), `p3#2` (page 3, attempt 2), `retrieveUser`
 * (a call), `retrieveUser#1` (its first attempt).
 */
export function labelOf(kind: Kind, context: AnyContext): string {
  const page = context.page === undefined ? '' : `p${context.page}`;
  if (kind === 'walk' || kind === 'sync') return kind;
  if (kind === 'page') return page;
  if (kind === 'call') return page === '' ? context.operation : `${context.operation} ${page}`;
  const of = page === '' ? context.operation : page;
  return `${of}#${context.attempt}`;
}

/** What an ending event says of its work: outcome, status, error code, hedge, attempts, pages. */
function endOf(context: AnyContext): string {
  const parts = [
    context.outcome,
    context.status,
    context.error?.code,
    context.hedge === undefined ? undefined : `hedge:${context.hedge}`,
    context.attempts === undefined ? undefined : `attempts:${context.attempts}`,
    context.pages === undefined ? undefined : `pages:${context.pages}`,
  ];
  return parts.filter((part) => part !== undefined).join(' ');
}

/** A subscriber to every channel of the SDK, a store bound to each one's `start`, and undici's request creation. */
export interface TracingRecorder {
  /** Each event, as `<kind>:<event> <label>` (ending events add what they say), and `undici:create <stores>`. */
  readonly events: string[];
  /** Every context seen, each once, in the order first seen. */
  readonly contexts: object[];
  /** The stores bound to each channel's `start`: the label of the work of that kind active now. */
  readonly stores: Readonly<Record<Kind, AsyncLocalStorage<string>>>;
  /** The labels of the stores active now, e.g. `walk p3 p3#1`. */
  active(): string;
  /** Unsubscribes and unbinds everything. */
  stop(): void;
}

/**
 * Subscribes to every channel of the SDK and binds a store to each one's `start`; with `undici`, also
 * records `undici:request:create` with the stores active when it fired.
 */
export function recordTracing(options: { undici?: boolean } = {}): TracingRecorder {
  const events: string[] = [];
  const seen = new Set<object>();
  const contexts: object[] = [];
  const stores = Object.fromEntries(KINDS.map((kind) => [kind, new AsyncLocalStorage<string>()])) as Record<
    Kind,
    AsyncLocalStorage<string>
  >;
  const active = () =>
    KINDS.map((kind) => stores[kind].getStore())
      .filter((label) => label !== undefined)
      .join(' ');
  const undo: (() => void)[] = [];
  for (const kind of KINDS) {
    const channel = diagnostics_channel.tracingChannel<string, AnyContext>(TRACING_CHANNELS[kind]);
    channel.start.bindStore(stores[kind], (context) => labelOf(kind, context));
    undo.push(() => channel.start.unbindStore(stores[kind]));
    const handlers = Object.fromEntries(
      EVENTS.map((event) => [
        event,
        (context: AnyContext) => {
          if (!seen.has(context)) {
            seen.add(context);
            contexts.push(context);
          }
          const ending = event === 'asyncEnd' || event === 'error' ? ` ${endOf(context)}` : '';
          events.push(`${kind}:${event} ${labelOf(kind, context)}${ending}`);
        },
      ]),
    ) as unknown as diagnostics_channel.TracingChannelSubscribers<AnyContext>;
    channel.subscribe(handlers);
    undo.push(() => channel.unsubscribe(handlers));
  }
  if (options.undici) {
    const created = () => events.push(`undici:create in ${active()}`);
    diagnostics_channel.subscribe('undici:request:create', created);
    undo.push(() => diagnostics_channel.unsubscribe('undici:request:create', created));
  }
  return {
    events,
    contexts,
    stores,
    active,
    stop: () => {
      for (const step of undo.splice(0)) step();
    },
  };
}
