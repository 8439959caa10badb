import { getLogger } from "../shared/log.js";
import { HookPhaseError } from "./errors.js";
import { Event, type InvokeOptions } from "./event.js";
import { EventStatus } from "./eventStatus.js";
import { DEFAULT_HOOK_TIMEOUT, ENDED_AT_MS, HookEvent, RUN_HOOK } from "./hookEvent.js";
import { globalHookLog } from "./hookLog.js";
import type { HookRegistry } from "./hookRegistry.js";
import { HookEventTypes } from "./hookTypes.js";

/** @internal The option key of a hook event's creation time, when its creator already read the clock. */
export const HOOK_CREATED_AT: unique symbol = Symbol("hooklens.hookCreatedAt");

/** How a pre- or post-invoke HookEvent is built. */
export interface HookAttachOptions {
  /** Exit policy; null/undefined mean false. */
  exitHook?: boolean | null;
  /** Seconds; default 30. */
  hookTimeout?: number | null;
  hookParams?: Record<string, unknown> | null;
  /** @internal */
  [HOOK_CREATED_AT]?: number;
}

const BLOCKING = new Set([EventStatus.FAILED, EventStatus.CANCELLED]);

/**
 * An event wrapped in its service hooks: pre-invoke hook → `_coreInvoke()` → post-invoke hook.
 * Subclasses implement `_coreInvoke` and `_coreStream`.
 *
 * - A pre hook that ends FAILED or CANCELLED blocks the core call whatever its exit flag (and
 *   every raising pre handler ends CANCELLED). A passing pre hook is written to the hook log.
 * - A core error is held while the post hook runs and is the error the event ends with.
 * - A post hook that ends FAILED/CANCELLED fails the event if the core succeeded; one that ends
 *   ABORTED with exit true rethrows its handler's error; ABORTED with exit false is only logged
 *   and the core result stands.
 * - Streaming runs the post hook only after the last chunk; its failure is logged, never raised.
 */
export class HookedEvent extends Event {
  #preInvokeHookEvent: HookEvent | null = null;
  #postInvokeHookEvent: HookEvent | null = null;

  /** The attached pre-invoke HookEvent, if any. */
  get preInvokeHookEvent(): HookEvent | null {
    return this.#preInvokeHookEvent;
  }

  /** The attached post-invoke HookEvent, if any. */
  get postInvokeHookEvent(): HookEvent | null {
    return this.#postInvokeHookEvent;
  }

  /** Attaches a pre-invocation HookEvent over `registry` (replacing any earlier one). */
  createPreInvokeHook(registry: HookRegistry, options: HookAttachOptions = {}): HookEvent {
    return (this.#preInvokeHookEvent = this.#hookEvent(HookEventTypes.PreInvocation, registry, options));
  }

  /** Attaches a post-invocation HookEvent over `registry` (replacing any earlier one). */
  createPostInvokeHook(registry: HookRegistry, options: HookAttachOptions = {}): HookEvent {
    return (this.#postInvokeHookEvent = this.#hookEvent(HookEventTypes.PostInvocation, registry, options));
  }

  #hookEvent(hookType: HookEventTypes, registry: HookRegistry, options: HookAttachOptions): HookEvent {
    return new HookEvent({
      registry,
      hookType,
      eventLike: this,
      exit: options.exitHook ?? false,
      timeout: options.hookTimeout === undefined ? DEFAULT_HOOK_TIMEOUT : options.hookTimeout,
      params: options.hookParams,
      createdAt: options[HOOK_CREATED_AT],
    });
  }

  /** The call itself; its return value becomes the response. */
  protected _coreInvoke(_signal?: AbortSignal): Promise<unknown> {
    return Promise.reject(new HookPhaseError(`${this.className()} does not implement _coreInvoke()`));
  }

  /** The streamed call itself. */
  // eslint-disable-next-line require-yield
  protected async *_coreStream(_signal?: AbortSignal): AsyncGenerator<unknown, void, undefined> {
    throw new HookPhaseError(`${this.className()} does not implement _coreStream()`);
  }

  protected override async _invoke(signal?: AbortSignal, startedAtMs?: number): Promise<unknown> {
    const pre = this.#preInvokeHookEvent;
    if (pre) {
      // The pre phase starts when the event does (invoke() hands over its clock reading).
      const running = runHook(pre, signal, startedAtMs);
      if (running) await running;
      passPreHook(pre);
    }
    let coreError: { error: unknown } | null = null;
    let response: unknown = null;
    try {
      response = await this._coreInvoke(signal);
    } catch (error) {
      coreError = { error };
    }
    const post = this.#postInvokeHookEvent;
    if (post) {
      try {
        const running = runHook(post, signal);
        // A post hook that finished synchronously ends the event too: nothing runs in between.
        if (running) await running;
        else Event.finishedAt(this, post[ENDED_AT_MS]);
        if (BLOCKING.has(post.status)) {
          globalHookLog.log(post);
          if (!coreError) throw new HookPhaseError(`Post-invoke hook ${post.status}: ${String(post.execution.error)}`);
        } else if (post.shouldExit) {
          if (!coreError) throw post.exitCause ?? new HookPhaseError("Post-invocation hook requested exit without a cause");
        } else {
          globalHookLog.log(post);
        }
      } catch (error) {
        if (!coreError) throw error;
      }
    }
    if (coreError) throw coreError.error;
    return response;
  }

  protected override async *_stream(signal?: AbortSignal): AsyncGenerator<unknown, void, undefined> {
    const pre = this.#preInvokeHookEvent;
    if (pre) {
      await runHook(pre, signal);
      passPreHook(pre);
    }
    yield* this._coreStream(signal);
    const post = this.#postInvokeHookEvent;
    if (!post) return;
    try {
      await runHook(post, signal);
    } catch (error) {
      if (signal?.aborted || (error as { name?: unknown } | null)?.name === "AbortError") throw error;
      getLogger().warn({ err: error }, "Post-stream hook failed (data already sent)");
    }
    globalHookLog.log(post);
  }
}

/** Throws when a finished pre hook blocks the core (FAILED or CANCELLED, or asking to exit); logs it when it passes. */
function passPreHook(pre: HookEvent): void {
  if (BLOCKING.has(pre.status)) throw new HookPhaseError(`Pre-invoke hook ${pre.status}: ${String(pre.execution.error)}`);
  if (pre.shouldExit) throw pre.exitCause ?? new HookPhaseError("Pre-invocation hook requested exit without a cause");
  globalHookLog.log(pre);
}

const DIRECT_INVOKE = HookEvent.prototype.invoke;

/**
 * Runs a hook event: undefined when it finished synchronously (no promise, no tick), else the
 * pending run. A cancellation may be thrown synchronously.
 */
export function runHook(hook: HookEvent, signal: AbortSignal | undefined, startedAtMs?: number): Promise<void> | undefined {
  return hook.invoke === DIRECT_INVOKE ? hook[RUN_HOOK](signal, startedAtMs) : hook.invoke(options(signal));
}

const NO_OPTIONS: InvokeOptions = Object.freeze({});

function options(signal: AbortSignal | undefined): InvokeOptions {
  return signal ? { signal } : NO_OPTIONS;
}
