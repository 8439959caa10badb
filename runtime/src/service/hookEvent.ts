import { performance } from "node:perf_hooks";
import { RESOLVED } from "../shared/async.js";
import { isCancellation } from "./cancellation.js";
import { Deadline, DEADLINE_OPTION, DeadlineParams } from "./deadline.js";
import { classNameOf, Event, type EventClass, type EventDict, type InvokeOptions } from "./event.js";
import { EventStatus } from "./eventStatus.js";
import { failure, HookRegistry, RUN_PHASE } from "./hookRegistry.js";
import { ALLOWED_HOOKS_TYPES, HookEventTypes, type AssociatedEventInfo, type HookParams, type HookPhaseResult } from "./hookTypes.js";
import { describeValue, requireObject } from "../shared/arguments.js";
import { InvalidValueError } from "../shared/errors.js";

/** @internal The key of HookEvent's promise-free run (see `HookEvent[RUN_HOOK]`). */
export const RUN_HOOK: unique symbol = Symbol("hooklens.runHook");
/** @internal The key of the `performance.now()` reading at which the last run ended (undefined before any run). */
export const ENDED_AT_MS: unique symbol = Symbol("hooklens.endedAtMs");
/** @internal The key of HookEvent's "add this event to the associated info". */
export const ASSOCIATE_EVENT: unique symbol = Symbol("hooklens.associateEvent");

/** Default seconds a HookEvent waits for its handler. */
export const DEFAULT_HOOK_TIMEOUT = 30;

export interface HookEventInit {
  registry: HookRegistry;
  hookType: HookEventTypes;
  /** The event (or, for pre-create, the event class) the handler receives. */
  eventLike: Event | EventClass;
  /** Exit policy; null/undefined mean false. */
  exit?: boolean | null;
  /** Seconds before the handler is abandoned; null means no deadline. Default 30. */
  timeout?: number | null;
  /** Extra params handed to the handler. */
  params?: Record<string, unknown> | null | undefined;
  id?: string;
  createdAt?: number | undefined;
}

export interface HookEventDict extends EventDict {
  hookType: HookEventTypes;
  associatedEventInfo: AssociatedEventInfo | null;
}

/**
 * One run of one phase handler under a deadline. `invoke()` never rejects except on a
 * cancellation from its caller: a raised handler leaves the registry's status (CANCELLED before,
 * ABORTED after) with the message in `execution.error`; a wiring failure or a passed deadline is
 * FAILED. `shouldExit` and `exitCause` tell the caller whether to stop and with which error.
 *
 * Reproduced as built: a handler that *returns* an Error (rather than throwing it) leaves the
 * status COMPLETED with the message recorded as the error, and any two-element array a handler
 * returns is read as the cancellation shape, so its second item is thrown and the event FAILS.
 * Unlike `Event.invoke`, it runs again every time it is called.
 *
 * Cost: with the registry's own `call`, a handler that returns a plain value is run and recorded
 * before `invoke()` returns (no promise awaited, no timer touched); only a pending handler makes
 * a deadline and waits, on one promise, in its duration's shared expiry queue.
 */
export class HookEvent extends Event {
  readonly registry: HookRegistry;
  readonly hookType: HookEventTypes;
  readonly eventLike: Event | EventClass;
  readonly exit: boolean;
  readonly timeout: number | null;
  /** null until read when none were given: a run then knows there are none without looking. */
  #params: Record<string, unknown> | null;
  #shouldExit = false;
  #exitCause: unknown = null;
  /** PENDING_INFO: the last direct run set it, and it is built on first read (so no event id is made unless read). */
  #info: AssociatedEventInfo | null | typeof PENDING_INFO = null;
  /** The event a pre-create hook's pending info names (see ASSOCIATE_EVENT). */
  #linkedEvent: Event | null = null;
  #endedAtMs: number | undefined = undefined;

  constructor(init: HookEventInit) {
    super(requireObject(init, "new HookEvent(init)", "init ({ registry, hookType, eventLike })"));
    this.registry = requireObject(init.registry, "new HookEvent(init)", "init.registry (a HookRegistry)");
    if (!ALLOWED_HOOKS_TYPES.includes(init.hookType)) {
      throw new InvalidValueError(`new HookEvent(init): init.hookType must be one of ${ALLOWED_HOOKS_TYPES.join(", ")}, got ${describeValue(init.hookType)}`);
    }
    this.hookType = init.hookType;
    this.eventLike = init.eventLike;
    this.exit = init.exit ?? false;
    this.timeout = init.timeout === undefined ? DEFAULT_HOOK_TIMEOUT : init.timeout;
    this.#params = init.params ?? null;
  }

  /** Extra params handed to the handler (besides `exit` and `signal`). */
  get params(): Record<string, unknown> {
    return (this.#params ??= {});
  }

  /** Whether the caller should stop: set by the registry, or from `exit` when the run failed. */
  get shouldExit(): boolean {
    return this.#shouldExit;
  }

  /** The error to stop with, if any. */
  get exitCause(): unknown {
    return this.#exitCause;
  }

  /** Where the last run's call came from: `lionClass`, plus `eventId` and `eventCreatedAt` when it had an event. */
  get associatedEventInfo(): AssociatedEventInfo | null {
    if (this.#info === PENDING_INFO) {
      const eventLike = this.eventLike;
      const info: AssociatedEventInfo = { lionClass: classNameOf(eventLike) };
      const event = this.hookType === HookEventTypes.PreEventCreate ? this.#linkedEvent : (eventLike as Event);
      if (event !== null) {
        info.eventId = event.id;
        info.eventCreatedAt = event.createdAt;
      }
      this.associatedEventInfo = info;
    }
    return this.#info as AssociatedEventInfo | null;
  }

  set associatedEventInfo(info: AssociatedEventInfo | null) {
    this.#info = info;
    this.#linkedEvent = null;
  }

  /** @internal The clock reading the last run ended at, for whatever happens next to start from. */
  get [ENDED_AT_MS](): number | undefined {
    return this.#endedAtMs;
  }

  /** @internal Adds `event`'s id and creation time to the info (what `IModel.createEvent` does for its pre-create hook). */
  [ASSOCIATE_EVENT](event: Event): void {
    if (this.#info === PENDING_INFO && this.hookType === HookEventTypes.PreEventCreate && this.#linkedEvent === null) this.#linkedEvent = event;
    else this.associatedEventInfo = { ...this.associatedEventInfo, eventId: event.id, eventCreatedAt: event.createdAt };
  }

  override invoke(options: InvokeOptions = {}): Promise<void> {
    try {
      return this[RUN_HOOK](options.signal) ?? RESOLVED;
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * @internal `invoke()` without the promise when the handler finishes synchronously: returns
   * undefined when the run is over, a promise when the handler is pending; throws a cancellation.
   */
  [RUN_HOOK](signal: AbortSignal | undefined, startedAtMs?: number): Promise<void> | undefined {
    const startMs = startedAtMs ?? performance.now();
    this.execution.status = EventStatus.PROCESSING;
    const registry = this.registry;
    const eventLike = this.eventLike;
    const hookType = this.hookType;
    // The registry's own phase runner is called directly when nothing stands in for `call`.
    if (registry.call !== DIRECT_CALL || !isDirectTarget(hookType, eventLike)) {
      return this.#runThroughCall(new Deadline(this.timeout, signal, startMs), signal, startMs);
    }
    let params: HandlerParams | null = null;
    let pending: Promise<void> | undefined;
    try {
      params = handlerParams(this.#params, this.exit, new DeadlineParams(null, this.timeout, signal, startMs));
      const failed = hookType === HookEventTypes.PostInvocation ? EventStatus.ABORTED : EventStatus.CANCELLED;
      const outcome = registry[RUN_PHASE](hookType, eventLike, params, params.exit, signal, failed);
      if (Array.isArray(outcome)) this.#record(outcome as HookPhaseResult);
      else return (pending = this.#recordWhenSettled(outcome, params.exit, failed, params, signal, startMs));
    } catch (thrown) {
      this.#fail(thrown, params && DeadlineParams.peek(params), signal);
    } finally {
      if (pending === undefined) this.#end(params, startMs);
    }
    return undefined;
  }

  /** The generic run, through `registry.call` (a registry that replaces `call`, or an unusual hook type or target). */
  async #runThroughCall(deadline: Deadline, signal: AbortSignal | undefined, startMs: number): Promise<void> {
    try {
      const [phase, meta] = await this.registry.call(this.eventLike, {
        ...this.params,
        hookType: this.hookType,
        shouldExit: this.exit,
        [DEADLINE_OPTION]: deadline,
      });
      this.associatedEventInfo = { ...meta };
      this.#apply(phase);
    } catch (thrown) {
      this.#fail(thrown, deadline, signal);
    } finally {
      this.#end(deadline, startMs);
    }
  }

  /**
   * The direct run once its handler is pending: the outcome is recorded in the settle callback
   * itself (the registry's `settle`, inlined), so the caller waits on one promise and one tick.
   */
  #recordWhenSettled(
    pending: PromiseLike<unknown>,
    shouldExit: boolean,
    failed: EventStatus,
    params: DeadlineParams,
    signal: AbortSignal | undefined,
    startMs: number,
  ): Promise<void> {
    const deadline = DeadlineParams.deadlineOf(params);
    return new Promise<void>((resolve, reject) => {
      deadline.watch(
        pending,
        (value) => this.#settled([value, false, EventStatus.COMPLETED], params, signal, startMs, resolve, reject),
        (error) => this.#settled(failure(error, deadline, shouldExit, failed), params, signal, startMs, resolve, reject),
      );
    });
  }

  #settled(phase: HookPhaseResult, params: DeadlineParams, signal: AbortSignal | undefined, startMs: number, resolve: () => void, reject: (error: unknown) => void): void {
    let cancelled = false;
    let cancellation: unknown;
    try {
      this.#record(phase);
    } catch (thrown) {
      try {
        this.#fail(thrown, DeadlineParams.peek(params), signal);
      } catch (error) {
        cancelled = true;
        cancellation = error;
      }
    }
    this.#end(params, startMs);
    if (cancelled) reject(cancellation);
    else resolve();
  }

  /** A phase outcome of the direct run: the info it implies (built when read), then the outcome. */
  #record(phase: HookPhaseResult): void {
    this.#info = PENDING_INFO;
    this.#linkedEvent = null;
    this.#apply(phase);
  }

  /** Reads the registry's `[result, shouldExit, status]`; rethrows the cancellation shape's error. */
  #apply([result, shouldExit, status]: HookPhaseResult): void {
    this.#shouldExit = shouldExit;
    this.execution.status = status;
    if (Array.isArray(result) && result.length === 2) {
      this.execution.response = null;
      this.execution.error = messageOf(result[1]);
      this.#exitCause = result[1];
      throw result[1] instanceof Error ? result[1] : new TypeError("A hook returned a two-item array whose second item is not an Error");
    }
    if (result instanceof Error) {
      this.execution.response = null;
      this.execution.error = messageOf(result);
      this.#exitCause = result;
    } else {
      this.execution.response = result;
      this.execution.error = null;
    }
  }

  /** A raised run: a passed deadline or any failure is FAILED (following `exit`); a caller's cancellation is rethrown. */
  #fail(thrown: unknown, deadline: Deadline | null, signal: AbortSignal | undefined): void {
    const error = deadline?.expired && !signal?.aborted ? deadline.timeoutError() : thrown;
    if (error === thrown && isCancellation(error, signal)) throw error;
    this.execution.status = EventStatus.FAILED;
    this.execution.response = null;
    this.execution.error = messageOf(error);
    this.#exitCause = error;
    this.#shouldExit = this.exit;
  }

  /** The run is over: its deadline is cleared (params: theirs, if they made one) and its duration recorded. */
  #end(deadline: Deadline | DeadlineParams | null, startMs: number): void {
    if (deadline instanceof DeadlineParams) DeadlineParams.close(deadline);
    else deadline?.clear();
    const endMs = performance.now();
    this.#endedAtMs = endMs;
    this.execution.duration = (endMs - startMs) / 1000;
  }

  override toDict(): HookEventDict {
    return { ...super.toDict(), hookType: this.hookType, associatedEventInfo: this.associatedEventInfo && { ...this.associatedEventInfo } };
  }
}

const DIRECT_CALL = HookRegistry.prototype.call;
const PENDING_INFO: unique symbol = Symbol("pending info");

/** A phase and target that `registry.call` would hand straight to its phase method. */
function isDirectTarget(hookType: HookEventTypes, eventLike: Event | EventClass): boolean {
  if (hookType === HookEventTypes.PreInvocation || hookType === HookEventTypes.PostInvocation) return eventLike instanceof Event;
  return hookType === HookEventTypes.PreEventCreate && (typeof eventLike === "function" || eventLike instanceof Event);
}

/** A handler's params: what it sees (HookParams), held in the DeadlineParams that make its `signal`. */
type HandlerParams = HookParams & DeadlineParams;

/**
 * What a handler receives, exactly as `registry.call` builds it from a HookEvent's options: its
 * params without the call's own keys, `exit` (its own exit ORed with a params `exit`) last, and
 * `signal` read from the deadline on demand.
 */
function handlerParams(source: Record<string, unknown> | null, exit: boolean, holder: DeadlineParams): HandlerParams {
  if (source === null) {
    const params = holder as HandlerParams;
    params.exit = Boolean(exit);
    return params;
  }
  const { hookType: _hookType, chunkType: _chunkType, chunk: _chunk, shouldExit: _shouldExit, exit: extraExit, signal: _signal, ...rest } = source;
  const params = Object.assign(holder as HandlerParams, rest);
  params.exit = Boolean(exit) || Boolean(extraExit);
  return params;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
