import { optionsObject, requireObject } from "../../shared/arguments.js";
import { Hook } from "../hook.js";
import type { LLMInvocation, ToolInvocation } from "../invocations.js";
import { RateBuckets } from "./buckets.js";
import { Rate } from "./rate.js";
import { monotonicSeconds, sleepSeconds, type Clock, type Sleep } from "./timing.js";

export interface RateLimitHookOptions {
  /** Seconds; defaults to the process-wide monotonic clock. */
  clock?: Clock;
  /** Defaults to a timer that honours the run's AbortSignal. */
  sleep?: Sleep;
  /**
   * The buckets to book from. Defaults to the process-wide table shared with worker threads, or
   * to a private table when a clock is injected (an injected clock's times mean nothing to
   * callers on the real clock).
   */
  buckets?: RateBuckets;
}

/** The bucket model calls use. */
export const LLM_KIND = "llm";

interface Limit {
  readonly rate: Rate;
  readonly slot: number;
}

/**
 * Waits for a slot before each tool call (bucket of the tool's kind) and each model call (bucket
 * "llm"); kinds without a rate never wait. It never fails: the only way out of a wait other than
 * its end is the run's AbortSignal, and a cancelled wait returns its slot when it was the latest
 * booking.
 */
export class RateLimitHook extends Hook {
  override name = "rate_limit";
  readonly #limits = new Map<string, Limit>();
  readonly #buckets: RateBuckets;
  readonly #clock: Clock;
  readonly #sleep: Sleep;

  constructor(perKind: Readonly<Record<string, Rate | { calls: number; per: number }>>, options: RateLimitHookOptions = {}) {
    requireObject(perKind, "new RateLimitHook(perKind, options)", "perKind ({ kind: new Rate(calls, per) })");
    options = optionsObject(options, "new RateLimitHook(perKind, options)");
    super();
    this.#clock = options.clock ?? monotonicSeconds;
    this.#sleep = options.sleep ?? sleepSeconds;
    this.#buckets = options.buckets ?? (options.clock ? new RateBuckets() : RateBuckets.shared());
    for (const [kind, rate] of Object.entries(perKind)) {
      const checked = rate instanceof Rate ? rate : new Rate(rate.calls, rate.per);
      this.#limits.set(kind, { rate: checked, slot: this.#buckets.slotFor(kind, checked) });
    }
  }

  beforeTool(inv: ToolInvocation): void | Promise<void> {
    return this.acquire(inv.spec.kind, inv.ctx.signal);
  }

  beforeLlm(inv: LLMInvocation): void | Promise<void> {
    return this.acquire(LLM_KIND, inv.ctx.signal);
  }

  /** Books a slot of `kind` and waits for it; returns nothing (synchronously) when no wait is needed. */
  acquire(kind: string, signal?: AbortSignal): void | Promise<void> {
    const limit = this.#limits.get(kind);
    if (limit === undefined) return;
    if (signal?.aborted) throw signal.reason;
    const booking = this.#buckets.book(limit.slot, limit.rate, this.#clock);
    if (booking.wait <= 0) return;
    // Sleep outside the lock, in this thread's own event loop.
    return this.#sleep(booking.wait, signal).catch((error: unknown) => {
      this.#buckets.release(limit.slot, limit.rate, booking);
      throw error;
    });
  }
}
