import { randomUUID } from "node:crypto";
import { isThenable } from "../shared/async.js";
import { publishSignal } from "../live/publisher.js";
import { Signal } from "./signal.js";

type Constructor<T> = abstract new (...args: never[]) => T;
export type ObserverHandler<T = unknown> = (value: T, context: unknown) => unknown;

interface Subscription {
  type: Constructor<unknown>;
  handler: ObserverHandler;
}

/**
 * Records session signals and fans them out to subscribers. (Minimal first cut: typed
 * subscriptions and recording; filters, routes, the gate and persistence arrive with the full
 * Session scope.)
 */
export class SessionObserver {
  /** The owning session's id, or a fresh id for a standalone observer. */
  readonly sessionId: string;
  readonly #events: Signal[] = [];
  readonly #ids = new Set<string>();
  readonly #subscriptions: Subscription[] = [];

  constructor(options: { sessionId?: string } = {}) {
    this.sessionId = options.sessionId ?? randomUUID();
  }

  /** Calls `handler` for every recorded signal that is an instance of `type`. */
  observe<T>(type: Constructor<T>, handler: ObserverHandler<T>): ObserverHandler<T> {
    this.#subscriptions.push({ type, handler: handler as ObserverHandler });
    return handler;
  }

  /** Records `event` (wrapped in a Signal when it is not one), then calls matching subscribers. */
  async emit(event: unknown): Promise<unknown[]> {
    const signal = event instanceof Signal ? event : new Signal({ data: event });
    if (!this.#ids.has(signal.id)) {
      this.#ids.add(signal.id);
      this.#events.push(signal);
      publishSignal(this.sessionId, signal);
    }
    const syncResults: unknown[] = [];
    const pending: PromiseLike<unknown>[] = [];
    for (const { type, handler } of this.#subscriptions) {
      if (!(signal instanceof type)) continue;
      const out = handler(signal, this);
      if (isThenable(out)) pending.push(out);
      else syncResults.push(out);
    }
    return [...syncResults, ...(await Promise.all(pending))];
  }

  /** The recorded signals that are instances of `type`, in recording order. */
  byType<T>(type: Constructor<T>): T[] {
    return this.#events.filter((event): event is Signal & T => event instanceof type);
  }
}
