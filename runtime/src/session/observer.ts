import { liveSink } from "../live/publisher.js";
import { requireFunction } from "../shared/arguments.js";
import { isThenable, RESOLVED_TRUE } from "../shared/async.js";
import { definitionSiteOf, noteDefinitionSite } from "../shared/definitionSite.js";
import { embeddedDefaultSignalStore } from "../store/embeddedDefaultStore.js";
import { getDefaultSignalStore, type SignalStore } from "../store/signalStore.js";
import { StoreSink } from "../store/storeSink.js";
import { flushSignals, recordSignal } from "./pipeline/signalPipeline.js";
import { otelEnvironmentSink } from "./pipeline/environmentOtel.js";
import { signalSettings } from "./pipeline/signalSettings.js";
import type { SignalSink, SinkTarget } from "./pipeline/sink.js";
import { TypeFilter, type Constructor, type Filter } from "./filters.js";
import { buildFilter, decide, isOptionsObject, looksLikeHandler, matchValues, testCondition } from "./observerMatching.js";
import { ADD_DEFERRED, Flow } from "./flow.js";
import type {
  Gate,
  ObserveFunction,
  ObserveOptions,
  ObserverContext,
  ObserverHandler,
  RouteCondition,
} from "./observeTypes.js";
import type { Session } from "./session.js";
import { asSignal, GateDenied, Signal } from "./signal.js";
import { describeValue, optionsObject, requireName, requireObject } from "../shared/arguments.js";
import { InvalidValueError } from "../shared/errors.js";
import { newId } from "../shared/ids.js";
import { RECORD_DEFERRED, RECORD_SIGNAL, type SignalMaker } from "../signals/signalRecorder.js";

interface Subscription {
  readonly filter: Filter<unknown>;
  readonly handler: ObserverHandler;
}

interface Route {
  readonly condition: RouteCondition;
  readonly into: string;
}

export interface SessionObserverOptions {
  /** The owning Session: subscribers get it as their context, and its id becomes `sessionId`. */
  session?: Session | null;
  /** The id live frames carry when there is no session; a fresh UUID when omitted. */
  sessionId?: string;
  /**
   * How many recent signals (and entries per named stream) to keep in memory; older ones are
   * still streamed and persisted, only forgotten here. Default: `signalSettings().keepRecentSignals` (1,000).
   */
  keepRecentSignals?: number;
}

/**
 * Records a Session's signals and fans them out to reactive subscribers. Unlike a HookBus it
 * has no order guarantee for async subscribers and no StopHook: it is the record, not a guard
 * chain. Subscriber errors are not isolated (that is the original's contract): a sync
 * subscriber that throws aborts `emit`, and an async one rejects it.
 */
export class SessionObserver {
  readonly session: Session | null;
  /** The session id that live frames and persisted rows carry. */
  readonly sessionId: string;
  /** The most recent signals once each, plus the named streams routes write to (both bounded). */
  readonly flow: Flow;
  #subscriptions: Subscription[] = [];
  readonly #routes: Route[] = [];
  #gate: Gate | null = null;
  /** Persistence bindings, latest last. */
  #persistTargets: SinkTarget[] = [];
  /** Sinks added with addSink. */
  #addedTargets: SinkTarget[] = [];
  /** Where a dispatched signal goes (live + persistence), and where a stored-only one goes (live); rebuilt on change. */
  #dispatchTargets: readonly SinkTarget[] | null = null;
  #storedTargets: readonly SinkTarget[] | null = null;
  #live: SinkTarget["sink"] | null = null;
  #otel: SinkTarget["sink"] | null = null;

  constructor(options: SessionObserverOptions = {}) {
    optionsObject(options, "new SessionObserver(options)");
    this.session = options.session ?? null;
    this.sessionId = options.session?.id ?? options.sessionId ?? newId();
    const keep = options.keepRecentSignals ?? signalSettings().keepRecentSignals;
    if (!Number.isSafeInteger(keep) || keep < 1) {
      throw new InvalidValueError(`new SessionObserver(options): keepRecentSignals must be a positive integer, got ${describeValue(keep)}`);
    }
    this.flow = new Flow("session-events", keep);
  }

  /** Subscribes a handler to what matches every key (and `role`); see {@link ObserveFunction}. */
  readonly observe: ObserveFunction = ((...args: unknown[]) => this.#observe(args)) as ObserveFunction;

  #observe(args: unknown[]): unknown {
    const keys = [...args];
    const options = isOptionsObject(keys[keys.length - 1]) ? (keys.pop() as ObserveOptions) : {};
    let handler = options.handler ?? null;
    if (!handler && keys.length >= 2 && looksLikeHandler(keys[keys.length - 1])) {
      handler = keys.pop() as ObserverHandler;
    }
    const filter = buildFilter(keys, options.role ?? null);
    if (handler) {
      this.#subscriptions.push({ filter, handler });
      return handler;
    }
    return (fn: ObserverHandler) => {
      this.#subscriptions.push({ filter, handler: fn });
      return fn;
    };
  }

  /** Removes every subscription of `handler` (by identity); returns how many were removed. */
  unobserve(handler: ObserverHandler<never>): number {
    const before = this.#subscriptions.length;
    this.#subscriptions = this.#subscriptions.filter((sub) => sub.handler !== handler);
    return before - this.#subscriptions.length;
  }

  /** Appends every allowed event whose payload meets `condition` to the stream `into`. */
  route(condition: RouteCondition, options: { into: string }): this {
    requireObject(options, "SessionObserver.route(condition, options)", "options ({ into })");
    requireName(options.into, "SessionObserver.route(condition, options)", "options.into");
    this.#routes.push({ condition, into: options.into });
    return this;
  }

  /** The envelopes routed into stream `name`, in order (repeats possible); empty for an unknown name. */
  stream(name: string): Signal[] {
    return this.flow.progression(name);
  }

  /**
   * Sets the one gate (replacing any earlier one; null removes it). It is called with every
   * emitted payload and with every action passed to {@link authorize}.
   */
  gate(check: Gate | null): this {
    if (check !== null) {
      requireFunction(check, "SessionObserver.gate(check)", "check (a function, or null to remove the gate)");
      // Where the program set it: its denials point there.
      noteDefinitionSite(check);
    }
    this.#gate = check;
    return this;
  }

  /**
   * Governance check for an action. No gate: allowed. A denial (falsy, or a throwing gate)
   * stores a `GateDenied` directly: no subscriber or route sees it, but it is streamed and
   * persisted like any dispatched signal, so a denied call is visible in every record.
   */
  authorize(action: unknown): Promise<boolean> {
    const gate = this.#gate;
    // Asked once per act() call: with no gate, a shared settled answer and no async frame.
    return gate ? this.#authorizeGated(gate, action) : RESOLVED_TRUE;
  }

  async #authorizeGated(gate: Gate, action: unknown): Promise<boolean> {
    const verdict = await decide(gate, action);
    if (verdict.allowed) return true;
    const denied = new GateDenied({ data: action });
    const branchId = (action as { branchId?: unknown } | null)?.branchId;
    if (typeof branchId === "string") denied.metadata["branchId"] = branchId;
    // GateDenied keeps the as-built shape (no fields of its own): why, which gate and where it
    // was set ride in metadata, as every other denied call names its reason and hook.
    denied.metadata["reason"] = verdict.reason;
    denied.metadata["hook"] = `observer.gate:${gate.name || "anonymous"}`;
    const location = definitionSiteOf(gate);
    if (location !== null) denied.metadata["location"] = location;
    this.#store(denied, true);
    return false;
  }

  /**
   * Records `event` (a non-Signal is wrapped as `Signal({data: event})`), even when the gate
   * denies it, then, if allowed, routes it and calls matching subscribers: sync ones in
   * registration order, then the async ones concurrently. Resolves to the sync results followed
   * by the async results.
   */
  emit(event: unknown): Promise<unknown[]> {
    // Not an async function: an observer without a gate waits for nothing, and an async frame
    // plus the promise it adopts were a visible part of every emit (seven per act() call).
    try {
      const signal = asSignal(event);
      const gate = this.#gate;
      return gate ? this.#emitGated(gate, signal) : this.#dispatch(signal, true);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * @internal {@link emit} for the runtime's own recordings, which discard its result (seven per
   * act() call): the same steps, but no result is built, and unless a gate or an async subscriber
   * is waited for, nothing is returned (undefined): the recording is over. Otherwise a promise
   * that settles when it is. A subclass's own `emit` is called instead. May throw where emit
   * rejects (a route condition or a sync subscriber that throws).
   */
  [RECORD_SIGNAL](event: unknown): Promise<unknown[]> | undefined {
    if (this.emit !== OWN_EMIT || this.#gate !== null) return this.emit(event);
    const signal = asSignal(event);
    const payload: unknown = signal.data;
    this.#store(signal, true);
    this.#route(signal, payload);
    if (this.#subscriptions.length === 0) return undefined;
    const pending = this.#notify(signal, payload, null);
    return pending === null ? undefined : Promise.all(pending);
  }

  /**
   * @internal {@link RECORD_SIGNAL} for the signal `maker` builds from `source` (tagged with
   * `branchId` when given). When nothing would see the signal now (no gate, subscriber, route or
   * sink, and no `emit` of a subclass), only its parts and the time are kept, in the flow's
   * place for it, and the signal is built when the flow is read: most of what a session records
   * is never read before it leaves the kept window. Otherwise it is built now and recorded as
   * `[RECORD_SIGNAL]` records it. May throw where emit rejects.
   */
  [RECORD_DEFERRED]<S>(maker: SignalMaker<S>, source: S, branchId?: string): Promise<unknown[]> | undefined {
    if (this.emit !== OWN_EMIT || this.#gate !== null || this.#subscriptions.length > 0 || this.#routes.length > 0 || this.#hasTargets()) {
      return this[RECORD_SIGNAL](maker.build(source, branchId, undefined));
    }
    this.flow[ADD_DEFERRED](maker, source, branchId, Date.now() / 1000);
    return undefined;
  }

  /** Whether a dispatched signal goes to any sink now (live, persistence, added sinks, OpenTelemetry). */
  #hasTargets(): boolean {
    const live = liveSink();
    const otel = otelEnvironmentSink();
    if (live !== this.#live || otel !== this.#otel || this.#dispatchTargets === null || this.#storedTargets === null) this.#retarget(live, otel);
    return this.#dispatchTargets!.length > 0;
  }

  async #emitGated(gate: Gate, signal: Signal): Promise<unknown[]> {
    // One async call per gated emit, as before: the signals of concurrent calls keep their microtasks.
    return this.#dispatch(signal, (await decide(gate, signal.data)).allowed);
  }

  /** Stores the signal, then, if allowed, routes it and calls the subscribers (may throw). */
  #dispatch(signal: Signal, allowed: boolean): Promise<unknown[]> {
    const payload: unknown = signal.data;
    this.#store(signal, allowed);
    if (!allowed) return Promise.resolve([]);
    this.#route(signal, payload);
    const syncResults: unknown[] = [];
    const pending = this.#notify(signal, payload, syncResults);
    if (pending === null) return Promise.resolve(syncResults);
    return Promise.all(pending).then((results) => [...syncResults, ...results]);
  }

  /**
   * Calls the subscribers that match `signal`: the sync ones' results go to `syncResults` (when
   * given); the async ones' promises are returned, or null when none returned one. May throw.
   */
  #notify(signal: Signal, payload: unknown, syncResults: unknown[] | null): PromiseLike<unknown>[] | null {
    const context: ObserverContext = this.session ?? this;
    let pending: PromiseLike<unknown>[] | null = null;
    try {
      for (const { filter, handler } of this.#subscriptions) {
        for (const value of matchValues(filter, signal, payload)) {
          const out = handler(value, context);
          if (isThenable(out)) (pending ??= []).push(out);
          else syncResults?.push(out);
        }
      }
    } catch (error) {
      // The async subscribers already started; nobody will await them now.
      if (pending !== null) for (const promise of pending) Promise.resolve(promise).catch(() => undefined);
      throw error;
    }
    return pending;
  }

  #route(signal: Signal, payload: unknown): void {
    for (const route of this.#routes) {
      if (testCondition(route.condition, payload)) this.flow.append(route.into, signal);
    }
  }

  /**
   * The stored envelopes, in order, whose payload is a `type`, has a field that is one, or that
   * are one themselves. Typed as `T[]` for a Signal class, though an envelope that merely carries
   * such a signal in its data (or a data field) is listed too.
   */
  byType<T>(type: Constructor<T>): Array<T extends Signal ? T : Signal> {
    const filter = new TypeFilter(type);
    return this.flow.items.filter((signal) => matchValues(filter, signal, signal.data).length > 0) as Array<
      T extends Signal ? T : Signal
    >;
  }

  /**
   * Persists every signal this observer dispatches (not gate-denied emissions), every
   * `GateDenied` of {@link authorize}, to `store`, or to the default SignalStore current at each
   * flush; when none was set, to the embedded SQLite file (`$HOOKLENS_DB` or
   * `.hooklens/signals.db`) if it already exists. Signals are written in batches at the end of
   * the turn (see {@link flush}); store failures are logged, never thrown. Binding again adds a
   * second writer; unbinding removes the latest.
   */
  bindDbPersistence(sessionId: string, store: SignalStore | null = null): void {
    if (typeof sessionId !== "string" || sessionId === "") {
      throw new InvalidValueError(`SessionObserver.bindDbPersistence(sessionId, store?): sessionId must be a non-empty string, got ${describeValue(sessionId)}`);
    }
    if (store !== null && store !== undefined && (typeof store !== "object" || typeof store.insertSessionSignal !== "function")) {
      throw new InvalidValueError(`SessionObserver.bindDbPersistence(sessionId, store?): store must be a SignalStore (with insertSessionSignal), got ${describeValue(store)}`);
    }
    const target = store ?? null;
    const sink = new StoreSink(() => target ?? getDefaultSignalStore() ?? embeddedDefaultSignalStore(), `session ${sessionId}`);
    this.#persistTargets = [...this.#persistTargets, { sink, sessionId }];
    this.#dispatchTargets = null;
  }

  /**
   * Sends every signal this observer dispatches (as {@link bindDbPersistence} does) to `sink` as
   * well, in the flushed batches every sink shares. Returns a function that removes it again.
   */
  addSink(sink: SignalSink): () => void {
    if (sink === null || typeof sink !== "object" || typeof sink.write !== "function" || typeof sink.flush !== "function") {
      throw new InvalidValueError(`SessionObserver.addSink(sink): sink must be a SignalSink (with write and flush), got ${describeValue(sink)}`);
    }
    const target: SinkTarget = { sink, sessionId: this.sessionId };
    this.#addedTargets = [...this.#addedTargets, target];
    this.#dispatchTargets = null;
    return () => {
      this.#addedTargets = this.#addedTargets.filter((t) => t !== target);
      this.#dispatchTargets = null;
    };
  }

  /** Stops the persistence {@link bindDbPersistence} started last. */
  unbindDbPersistence(): void {
    this.#persistTargets = this.#persistTargets.slice(0, -1);
    this.#dispatchTargets = null;
  }

  /**
   * Hands every signal recorded so far (by any observer) to the live stream and the stores, and
   * waits until they have written it. Emitting never waits for this; call it before reading a
   * store back or before `process.exit()`. A program that ends normally is flushed on its own.
   */
  flush(): Promise<void> {
    return flushSignals();
  }

  #store(signal: Signal, dispatched: boolean): void {
    if (!this.flow.add(signal)) return;
    const live = liveSink();
    const otel = otelEnvironmentSink();
    if (live !== this.#live || otel !== this.#otel || this.#dispatchTargets === null || this.#storedTargets === null) this.#retarget(live, otel);
    recordSignal(signal, dispatched ? this.#dispatchTargets! : this.#storedTargets!);
  }

  #retarget(live: SinkTarget["sink"] | null, otel: SinkTarget["sink"] | null): void {
    this.#live = live;
    this.#otel = otel;
    const liveTargets = live ? [{ sink: live, sessionId: this.sessionId }] : [];
    // An export of this observer's own to the global provider stands in for HOOKLENS_OTEL's.
    const otelTargets = otel && !this.#addedTargets.some((t) => t.sink.replacesOtelEnvironment === true) ? [{ sink: otel, sessionId: this.sessionId }] : [];
    this.#storedTargets = liveTargets;
    this.#dispatchTargets = [...liveTargets, ...this.#persistTargets, ...this.#addedTargets, ...otelTargets];
  }
}

/** The emit a recorder's result-free form stands for: a subclass that overrides emit is called through it. */
const OWN_EMIT = SessionObserver.prototype.emit;
