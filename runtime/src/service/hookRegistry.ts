import { definitionSiteOf, noteDefinitionSite, type SourceLocation } from "../shared/definitionSite.js";
import { optionsObject, requireFunction, requireObject } from "../shared/arguments.js";
import { isThenable } from "../shared/async.js";
import { InvalidValueError } from "../shared/errors.js";
import { getLogger } from "../shared/log.js";
import { abortReason, isCancellation, toError } from "./cancellation.js";
import { Deadline, DEADLINE_OPTION, DeadlineParams } from "./deadline.js";
import { HookValidationError, MissingHookHandlerError } from "./errors.js";
import { classNameOf, Event, type EventClass } from "./event.js";
import { EventStatus } from "./eventStatus.js";
import {
  HookEventTypes,
  Undefined,
  type AssociatedEventInfo,
  type ChunkCallResult,
  type ChunkClass,
  type HookDict,
  type HookEventTypesLike,
  type HookParams,
  type HookPhaseResult,
  type PhaseCallResult,
  type PhaseHookHandler,
  type StreamHandlers,
} from "./hookTypes.js";
import { keyName, normalizeHookKey, toEntryMap, validateHook, validateHooks, validateStreamHandler, validateStreamHandlers } from "./hookValidation.js";

export interface HookRegistryInit {
  hooks?: HookDict | null;
  streamHandlers?: StreamHandlers | null;
}

/**
 * Options of one phase or chunk call. `shouldExit` and the legacy `exit` are ORed into the exit
 * policy, which every handler receives back as `params.exit`. `signal` cancels the call (and is
 * passed on as `params.signal`). Every other key is a handler param.
 */
export interface HookCallParams {
  [param: string]: unknown;
  shouldExit?: boolean;
  exit?: unknown;
  signal?: AbortSignal;
  /** @internal How a HookEvent hands over its deadline. */
  [DEADLINE_OPTION]?: Deadline;
}

export interface PhaseCallOptions extends HookCallParams {
  hookType: HookEventTypesLike;
  chunkType?: string | ChunkClass | null;
  chunk?: unknown;
}

export interface ChunkCallOptions extends HookCallParams {
  hookType?: null;
  chunkType: string | ChunkClass;
  chunk?: unknown;
}

type AnyHandler = (...args: unknown[]) => unknown;

/** @internal The key of the registry's synchronous-first phase runner (see `HookRegistry[RUN_PHASE]`). */
export const RUN_PHASE: unique symbol = Symbol("hooklens.runPhase");

/** Where the program registered a registry's handler for a phase, when known: the call record's hook runs carry it. Runtime-internal. */
export let phaseHandlerSite: (registry: HookRegistry, hookType: string) => SourceLocation | null;

/**
 * The hooks of one model: at most one handler per phase and one per stream-chunk key. It never
 * throws for a failing handler; every phase call returns `[result, shouldExit, status]`, where a
 * failure shows as the error in the result slot. Status rules: a pre phase that fails is
 * CANCELLED, a post phase or chunk handler that fails is ABORTED, and a cancellation always comes
 * back as `[[Undefined, error], true, CANCELLED]`.
 */

export class HookRegistry {
  readonly #hooks = new Map<HookEventTypes | string, unknown>();
  readonly #streamHandlers = new Map<unknown, unknown>();

  static {
    phaseHandlerSite = (registry, hookType) => definitionSiteOf(registry.#hooks.get(hookType));
  }

  constructor(init: HookRegistryInit = {}) {
    init = optionsObject(init, "new HookRegistry(init)");
    for (const key of Object.keys(init)) {
      if (key !== "hooks" && key !== "streamHandlers") {
        throw new HookValidationError(`Unknown HookRegistry option ${JSON.stringify(key)}: pass phase handlers as { hooks: { ${key}: … } }`);
      }
    }
    if (init.hooks !== undefined && init.hooks !== null) {
      const hooks = new Map<string, unknown>();
      for (const [key, handler] of toEntryMap(init.hooks, "hooks")) hooks.set(normalizeHookKey(String(key)), handler);
      validateHooks(hooks);
      for (const [key, handler] of hooks) {
        this.#hooks.set(key, handler);
        if (typeof handler === "function") noteDefinitionSite(handler);
      }
    }
    if (init.streamHandlers !== undefined && init.streamHandlers !== null) {
      const handlers = toEntryMap(init.streamHandlers, "streamHandlers");
      validateStreamHandlers(handlers);
      for (const [key, handler] of handlers) this.#streamHandlers.set(key, handler);
    }
  }

  /** Registers the pre-event-create handler (it receives the event class); overwrites with a warning. */
  preEventCreateHook<F extends PhaseHookHandler>(fn: F): F {
    return this.#setPhase(HookEventTypes.PreEventCreate, fn);
  }

  /** Registers the pre-invocation handler; overwrites with a warning. */
  preInvoke<F extends PhaseHookHandler>(fn: F): F {
    return this.#setPhase(HookEventTypes.PreInvocation, fn);
  }

  /** Registers the post-invocation handler; overwrites with a warning. */
  postInvoke<F extends PhaseHookHandler>(fn: F): F {
    return this.#setPhase(HookEventTypes.PostInvocation, fn);
  }

  #setPhase<F>(key: HookEventTypes, fn: F): F {
    requireFunction(fn, `HookRegistry ${key} hook`, "the handler");
    if (this.#hooks.has(key)) getLogger().warn({ hookType: key }, `Overwriting existing ${key} hook`);
    this.#hooks.set(key, fn);
    // Where the program registered it: the model call's record of this phase points there.
    noteDefinitionSite(fn as object);
    return fn;
  }

  /** True when a handler is registered for the phase, or for the chunk key (a string or the class itself). */
  canHandle(query: { hookType?: HookEventTypesLike | null; chunkType?: string | ChunkClass | null }): boolean {
    if (query.hookType) return this.#hooks.has(query.hookType);
    if (query.chunkType) return this.#streamHandlers.has(query.chunkType);
    return false;
  }

  /** Runs the pre-event-create handler with the event class. A failure is CANCELLED. */
  preEventCreate(eventType: EventClass, options: HookCallParams = {}): Promise<HookPhaseResult> {
    return this.#phase(HookEventTypes.PreEventCreate, eventType, options, EventStatus.CANCELLED);
  }

  /** Runs the pre-invocation handler with the event. A failure is CANCELLED. */
  preInvocation(event: Event, options: HookCallParams = {}): Promise<HookPhaseResult> {
    return this.#phase(HookEventTypes.PreInvocation, event, options, EventStatus.CANCELLED);
  }

  /** Runs the post-invocation handler with the event. A failure is ABORTED. */
  postInvocation(event: Event, options: HookCallParams = {}): Promise<HookPhaseResult> {
    return this.#phase(HookEventTypes.PostInvocation, event, options, EventStatus.ABORTED);
  }

  /**
   * Runs the stream handler for `chunkType` as `handler(null, chunkType, chunk, params)`. Success
   * is `[result, false, null]`; a failure (a missing handler included) is ABORTED.
   */
  async handleStreamingChunk(chunkType: string | ChunkClass, chunk: unknown, options: HookCallParams = {}): Promise<ChunkCallResult> {
    const { shouldExit, guard, params, ownsGuard } = splitOptions(options);
    try {
      let result: unknown;
      try {
        const handler = this.#streamHandlers.get(chunkType);
        if (handler === undefined || handler === null) {
          throw new MissingHookHandlerError(`No stream handler registered for ${keyName(chunkType)}`);
        }
        validateStreamHandler(chunkType, handler);
        if (guard?.aborted) throw guard.reason();
        result = (handler as AnyHandler)(null, chunkType, chunk, params);
      } catch (error) {
        return failure(error, guard, shouldExit, EventStatus.ABORTED);
      }
      return await settle(guard ? guard.race(result) : result, guard, shouldExit, null, EventStatus.ABORTED);
    } finally {
      if (ownsGuard) guard?.clear();
    }
  }

  /**
   * Calls a phase (`hookType`) or a stream handler (`chunkType`); `hookType` wins when both are
   * given. A phase call returns `[[result, shouldExit, status], meta]` where meta holds
   * `lionClass`, plus `eventId` and `eventCreatedAt` for the invocation phases. A chunk call returns
   * `[result, shouldExit, status]` with no meta.
   */
  call(eventLike: Event | EventClass, options: PhaseCallOptions): Promise<PhaseCallResult>;
  call(eventLike: Event | EventClass | null, options: ChunkCallOptions): Promise<ChunkCallResult>;
  call(eventLike: Event | EventClass | null, options: PhaseCallOptions | ChunkCallOptions): Promise<PhaseCallResult | ChunkCallResult>;
  async call(eventLike: Event | EventClass | null, options: PhaseCallOptions | ChunkCallOptions): Promise<PhaseCallResult | ChunkCallResult> {
    const { hookType, chunkType, chunk, ...rest } = requireObject(options, "HookRegistry.call(eventLike, options)", "options ({ hookType } or { chunkType, chunk })");
    if ((hookType === undefined || hookType === null) && (chunkType === undefined || chunkType === null)) {
      throw new InvalidValueError("Either hookType or chunkType must be provided");
    }
    if (hookType) {
      if (eventLike === null || eventLike === undefined) {
        throw new InvalidValueError(`A ${hookType} call needs an event or an event class`);
      }
      const meta: AssociatedEventInfo = { lionClass: classNameOf(eventLike) };
      switch (hookType) {
        case HookEventTypes.PreEventCreate:
          return [await this.preEventCreate(eventLike as EventClass, rest), meta];
        case HookEventTypes.PreInvocation:
          addEventInfo(meta, eventLike, hookType);
          return [await this.preInvocation(eventLike as Event, rest), meta];
        case HookEventTypes.PostInvocation:
          addEventInfo(meta, eventLike, hookType);
          return [await this.postInvocation(eventLike as Event, rest), meta];
        default:
        // An unknown hookType string falls through to the chunk path, as the original does.
      }
    }
    return this.handleStreamingChunk(chunkType as string | ChunkClass, chunk, rest);
  }

  async #phase(key: HookEventTypes, eventLike: Event | EventClass, options: HookCallParams, failed: EventStatus): Promise<HookPhaseResult> {
    const { shouldExit, guard, params, ownsGuard } = splitOptions(options);
    try {
      const outcome = this[RUN_PHASE](key, eventLike, params, shouldExit, guard, failed);
      if (Array.isArray(outcome)) return outcome as HookPhaseResult;
      return await settle(guard ? guard.race(outcome) : outcome, guard, shouldExit, EventStatus.COMPLETED, failed);
    } finally {
      if (ownsGuard) guard?.clear();
    }
  }

  /**
   * @internal The body of every phase call, also run directly by HookEvent (whose guard is then
   * its caller's signal: its own deadline cannot pass before the handler returns). It never
   * throws. When the handler returns a plain value or raises, the `[result, shouldExit, status]`
   * array comes back at once (no promise, no tick); when it returns a promise, that promise comes
   * back as is, for the caller to race against the guard and shape with {@link settle} (or the
   * same inline).
   */
  [RUN_PHASE](
    key: HookEventTypes,
    eventLike: Event | EventClass,
    params: HookParams,
    shouldExit: boolean,
    guard: Deadline | AbortSignal | null | undefined,
    failed: EventStatus,
  ): HookPhaseResult | PromiseLike<unknown> {
    let result: unknown;
    try {
      const handler = this.#hooks.get(key);
      if (!handler) throw new MissingHookHandlerError("Hook type is required when chunkType is not provided");
      validateHook(key, handler);
      if (guard?.aborted) throw guard instanceof Deadline ? guard.reason() : abortReason(guard);
      result = (handler as AnyHandler)(eventLike, params);
    } catch (error) {
      return failure(error, guard, shouldExit, failed);
    }
    if (!isThenable(result)) return [result, false, EventStatus.COMPLETED];
    return result;
  }
}

/** Waits for a pending handler result (already raced against the guard) and shapes the outcome. */
async function settle<S extends EventStatus | null>(
  pending: unknown,
  guard: Deadline | null,
  shouldExit: boolean,
  success: S,
  failed: EventStatus,
): Promise<[unknown, boolean, S | EventStatus]> {
  try {
    return [await pending, false, success];
  } catch (error) {
    return failure(error, guard, shouldExit, failed);
  }
}

/** A handler that raised: a cancellation (or anything while the guard is aborted) is CANCELLED and always exits. */
export function failure(error: unknown, guard: Deadline | AbortSignal | null | undefined, shouldExit: boolean, failed: EventStatus): [unknown, boolean, EventStatus] {
  if (isCancellation(error, guard)) return [[Undefined, error], true, EventStatus.CANCELLED];
  return [toError(error), shouldExit, failed];
}

interface SplitOptions {
  shouldExit: boolean;
  guard: Deadline | null;
  ownsGuard: boolean;
  params: HookParams;
}

function splitOptions(options: HookCallParams): SplitOptions {
  const { shouldExit, exit, signal, [DEADLINE_OPTION]: handed, ...rest } = options;
  const resolved = Boolean(shouldExit) || Boolean(exit);
  let params: HookParams;
  let guard: Deadline | null = null;
  if (handed) {
    guard = handed;
    params = Object.assign(new DeadlineParams(handed) as unknown as HookParams, rest);
    params.exit = resolved;
  } else {
    params = { ...rest, exit: resolved };
    if (signal) {
      params.signal = signal;
      guard = new Deadline(null, signal);
    }
  }
  return { shouldExit: resolved, guard, params, ownsGuard: !handed };
}

function addEventInfo(meta: AssociatedEventInfo, eventLike: Event | EventClass, hookType: string): void {
  if (!(eventLike instanceof Event)) throw new InvalidValueError(`A ${hookType} call needs an event instance, got a class`);
  meta.eventId = eventLike.id;
  meta.eventCreatedAt = eventLike.createdAt;
}

