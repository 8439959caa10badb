import { isThenable, RESOLVED } from "../shared/async.js";
import { getLogger } from "../shared/log.js";
import { HookPoint, normalizePoint, type HookPointLike } from "./hookPoint.js";
import type { HookPayload, PayloadOf } from "./payloads.js";
import { HookSignal } from "./signal.js";
import { StopHook } from "./stopHook.js";

/** A Session hook handler: gets the emission's payload; may be sync or async. Treat the payload as read-only. */
export type HookHandler<P = HookPayload> = (payload: Readonly<P>) => unknown;

/** What a bus records into: a SessionObserver, or anything with the same `emit`. */
export interface HookSignalRecorder {
  emit(event: HookSignal): unknown;
}

const NO_HANDLERS: readonly HookHandler[] = Object.freeze([]);
const EMPTY_PAYLOAD: Readonly<HookPayload> = Object.freeze({});
// Module constants rather than enum property reads on the per-emit path.
const TOOL_PRE: HookPoint = HookPoint.TOOL_PRE;
const MESSAGE_ADD: HookPoint = HookPoint.MESSAGE_ADD;

/**
 * The ordered Session hook chain. Handlers run one after another in registration order; a
 * `StopHook` ends the chain quietly. At TOOL_PRE a handler error propagates (the chain is a
 * guard); at every other point it is logged and the next handler runs. After the chain a bound
 * observer records a `HookSignal` (never for MESSAGE_ADD through `emit`).
 *
 * Handler lists are replaced, never mutated, on `on`/`off`: an emission keeps the array it
 * started with, which is the snapshot the contract asks for at no per-emit cost.
 */
export class HookBus {
  #observer: HookSignalRecorder | null;
  // A plain object keyed by point value: a keyed property load is cheaper per emit than Map.get.
  readonly #handlers: Partial<Record<HookPoint, readonly HookHandler[]>> = {};

  constructor(observer: HookSignalRecorder | null = null) {
    this.#observer = observer;
  }

  /** The observer this bus records into, or null. */
  get observer(): HookSignalRecorder | null {
    return this.#observer;
  }

  /** Replaces the bound observer (`null` unbinds) and returns this bus. */
  bind(observer: HookSignalRecorder | null): this {
    this.#observer = observer ?? null;
    return this;
  }

  /** Appends a handler. Duplicates are kept and run once per registration. Returns a disposer that calls `off`. */
  on<P extends HookPointLike>(point: P, handler: HookHandler<PayloadOf<P>>): () => void {
    const member = normalizePoint(point);
    this.#handlers[member] = [...this.#listAt(member), handler as HookHandler];
    return () => this.off(point, handler);
  }

  /** Removes the first registration of `handler` at `point`; a missing one is a no-op. */
  off<P extends HookPointLike>(point: P, handler: HookHandler<PayloadOf<P>>): void {
    const member = normalizePoint(point);
    const list = this.#handlers[member];
    const index = list ? list.indexOf(handler as HookHandler) : -1;
    if (!list || index < 0) return;
    this.#handlers[member] = [...list.slice(0, index), ...list.slice(index + 1)];
  }

  /** A copy of the handlers registered at `point`, in order. */
  handlersFor<P extends HookPointLike>(point: P): HookHandler<PayloadOf<P>>[] {
    return [...this.#listAt(normalizePoint(point))] as HookHandler<PayloadOf<P>>[];
  }

  /**
   * Runs the chain as a guard: the first non-StopHook error rejects, later handlers do not run
   * and nothing is recorded. Records every point it completes, MESSAGE_ADD included.
   */
  blockingEmit<P extends HookPointLike>(point: P, payload?: PayloadOf<P>): Promise<void> {
    return this.#dispatch(point, payload as HookPayload | undefined, true);
  }

  /** Runs the chain; TOOL_PRE is delegated to {@link blockingEmit}, other points isolate handler failures. */
  emit<P extends HookPointLike>(point: P, payload?: PayloadOf<P>): Promise<void> {
    return this.#dispatch(point, payload as HookPayload | undefined, false);
  }

  #listAt(member: HookPoint): readonly HookHandler[] {
    return this.#handlers[member] ?? NO_HANDLERS;
  }

  // Stays synchronous until a handler returns a promise: sync handlers cost a call each and a
  // chain with no observer allocates nothing.
  #dispatch(point: HookPointLike, payload: HookPayload | undefined, forceBlocking: boolean): Promise<void> {
    // Only valid points are ever own keys of #handlers, so a hit needs no separate validation.
    const handlers = Object.hasOwn(this.#handlers, point) ? this.#handlers[point as HookPoint] : undefined;
    if (handlers === undefined) return this.#dispatchUnregistered(point, payload, forceBlocking);
    const member = point as HookPoint;
    const blocking = forceBlocking || member === TOOL_PRE;
    const records = forceBlocking || member !== MESSAGE_ADD;
    const args = payload ?? EMPTY_PAYLOAD;
    for (let i = 0, count = handlers.length; i < count; i++) {
      let result: unknown;
      try {
        result = handlers[i]!(args);
      } catch (error) {
        if (error instanceof StopHook) break;
        if (blocking) return Promise.reject(error);
        logHandlerFailure(member, error);
        continue;
      }
      if (result !== undefined && isThenable(result)) return this.#settleAsync(member, args, handlers, i, result, blocking, records);
    }
    return records && this.#observer ? this.#record(member, args) : RESOLVED;
  }

  // Kept out of #dispatch so its sync loop stays small enough to inline handler calls.
  #settleAsync(
    member: HookPoint,
    args: HookPayload,
    handlers: readonly HookHandler[],
    index: number,
    pending: PromiseLike<unknown>,
    blocking: boolean,
    records: boolean,
  ): Promise<void> {
    // The last handler's own promise, with nothing to record afterwards: settle through one
    // `then` instead of starting an async continuation.
    if (index === handlers.length - 1 && pending.constructor === Promise && !(records && this.#observer)) {
      return (pending as Promise<unknown>).then(settleQuietly, blocking ? rethrowUnlessStop : FAILURE_LOGGERS[member]);
    }
    return this.#continueAsync(member, args, handlers, index, pending, blocking, records);
  }

  /** A point nobody registered at: reject an unknown one, otherwise just record. */
  #dispatchUnregistered(point: HookPointLike, payload: HookPayload | undefined, forceBlocking: boolean): Promise<void> {
    let member: HookPoint;
    try {
      member = normalizePoint(point);
    } catch (error) {
      return Promise.reject(error);
    }
    const records = forceBlocking || member !== MESSAGE_ADD;
    return records && this.#observer ? this.#record(member, payload ?? EMPTY_PAYLOAD) : RESOLVED;
  }

  async #continueAsync(
    member: HookPoint,
    args: HookPayload,
    handlers: readonly HookHandler[],
    index: number,
    pending: PromiseLike<unknown>,
    blocking: boolean,
    records: boolean,
  ): Promise<void> {
    let result: unknown = pending;
    for (let i = index; ; ) {
      try {
        await result;
      } catch (error) {
        if (error instanceof StopHook) break;
        if (blocking) throw error;
        logHandlerFailure(member, error);
      }
      if (++i >= handlers.length) break;
      try {
        result = handlers[i]!(args);
      } catch (error) {
        if (error instanceof StopHook) break;
        if (blocking) throw error;
        logHandlerFailure(member, error);
        result = undefined;
      }
    }
    if (records && this.#observer) await this.#record(member, args);
  }

  async #record(member: HookPoint, args: HookPayload): Promise<void> {
    const observer = this.#observer;
    if (!observer) return;
    try {
      await observer.emit(new HookSignal(member, args));
    } catch (error) {
      getLogger().error({ err: error, point: member }, `HookBus could not record ${member}: ${describe(error)}`);
    }
  }
}

function settleQuietly(): void {}

function rethrowUnlessStop(error: unknown): void {
  if (!(error instanceof StopHook)) throw error;
}

/** Per point, the rejection handler of a non-blocking chain's last handler: StopHook ends quietly, anything else is logged. */
const FAILURE_LOGGERS = Object.fromEntries(
  Object.values(HookPoint).map((point) => [
    point,
    (error: unknown): void => {
      if (!(error instanceof StopHook)) logHandlerFailure(point, error);
    },
  ]),
) as Record<HookPoint, (error: unknown) => void>;

function logHandlerFailure(point: HookPoint, error: unknown): void {
  getLogger().error({ err: error, point }, `Hook failed at ${point}: ${describe(error)}`);
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
