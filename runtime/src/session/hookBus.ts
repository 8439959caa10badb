import { RESOLVED } from "../shared/async.js";
import { recordHookSignal } from "./hookChain.js";
import { compileDispatcher, type Dispatcher } from "./hookDispatcher.js";
import { HookPoint, normalizePoint, type HookPointLike } from "./hookPoint.js";
import type { HookPayload, PayloadOf } from "./payloads.js";
import type { HookSignal } from "./signal.js";
import { describeValue } from "../shared/arguments.js";
import { noteDefinitionSite } from "../shared/definitionSite.js";
import { InvalidValueError } from "../shared/errors.js";

/** A Session hook handler: gets the emission's payload; may be sync or async. Treat the payload as read-only. */
export type HookHandler<P = HookPayload> = (payload: Readonly<P>) => unknown;

/** What a bus records into: a SessionObserver, or anything with the same `emit`. */
export interface HookSignalRecorder {
  emit(event: HookSignal): unknown;
}

/** A point's handler list with the dispatcher compiled for it; both are replaced together, never mutated. */
interface Chain {
  readonly handlers: readonly HookHandler[];
  readonly run: Dispatcher;
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
 * Handler lists are replaced, never mutated, on `on`/`off`, each with a dispatcher compiled for
 * it: an emission keeps the list it started with, which is the snapshot the contract asks for at
 * no per-emit cost.
 */
export class HookBus {
  #observer: HookSignalRecorder | null;
  // A plain object keyed by point value: a keyed property load is cheaper per emit than Map.get.
  readonly #chains: Partial<Record<HookPoint, Chain>> = {};

  constructor(observer: HookSignalRecorder | null = null) {
    this.#observer = recorderOrNull(observer, "new HookBus(observer)");
  }

  /** The observer this bus records into, or null. */
  get observer(): HookSignalRecorder | null {
    return this.#observer;
  }

  /** Replaces the bound observer (`null` unbinds) and returns this bus. */
  bind(observer: HookSignalRecorder | null): this {
    this.#observer = recorderOrNull(observer ?? null, "HookBus.bind(observer)");
    return this;
  }

  /** Appends a handler. Duplicates are kept and run once per registration. Returns a disposer that calls `off`. */
  on<P extends HookPointLike>(point: P, handler: HookHandler<PayloadOf<P>>): () => void {
    const member = normalizePoint(point);
    if (typeof handler !== "function") {
      throw new InvalidValueError(`HookBus.on(${JSON.stringify(member)}, handler): handler must be a function, got ${describeValue(handler)}`);
    }
    // Where the program registered it: a denial this handler decides points there.
    noteDefinitionSite(handler);
    this.#setList(member, [...this.#listAt(member), handler as HookHandler]);
    return () => this.off(point, handler);
  }

  /** Removes the first registration of `handler` at `point`; a missing one is a no-op. */
  off<P extends HookPointLike>(point: P, handler: HookHandler<PayloadOf<P>>): void {
    const member = normalizePoint(point);
    const list = this.#listAt(member);
    const index = list.indexOf(handler as HookHandler);
    if (index < 0) return;
    this.#setList(member, [...list.slice(0, index), ...list.slice(index + 1)]);
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
    return this.#chains[member]?.handlers ?? NO_HANDLERS;
  }

  #setList(member: HookPoint, handlers: readonly HookHandler[]): void {
    this.#chains[member] = { handlers, run: compileDispatcher(handlers) };
  }

  // A chain whose handlers all return no promise allocates nothing and settles on the shared
  // RESOLVED; the dispatcher hands back a promise only once a handler returned one.
  #dispatch(point: HookPointLike, payload: HookPayload | undefined, forceBlocking: boolean): Promise<void> {
    // Only valid points are ever own keys of #chains, so a hit needs no separate validation.
    const chain = Object.hasOwn(this.#chains, point) ? this.#chains[point as HookPoint] : undefined;
    if (chain === undefined) return this.#dispatchUnregistered(point, payload, forceBlocking);
    const member = point as HookPoint;
    const records = forceBlocking || member !== MESSAGE_ADD;
    const args = payload ?? EMPTY_PAYLOAD;
    let pending: Promise<void> | undefined;
    try {
      pending = chain.run(args, member, forceBlocking || member === TOOL_PRE, records ? this : null);
    } catch (error) {
      // A blocking chain's failure: reject, record nothing.
      return Promise.reject(error);
    }
    if (pending !== undefined) return pending;
    return records && this.#observer ? recordHookSignal(this.#observer, member, args) : RESOLVED;
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
    return records && this.#observer ? recordHookSignal(this.#observer, member, payload ?? EMPTY_PAYLOAD) : RESOLVED;
  }
}

/** An observer to record into (anything with `emit(signal)`, such as a SessionObserver), or null. */
function recorderOrNull(observer: HookSignalRecorder | null, where: string): HookSignalRecorder | null {
  if (observer === null || typeof (observer as Partial<HookSignalRecorder>).emit === "function") return observer;
  throw new InvalidValueError(`${where}: observer must be a SessionObserver (anything with emit(signal)) or null, got ${describeValue(observer)}`);
}
