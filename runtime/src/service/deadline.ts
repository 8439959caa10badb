import { performance } from "node:perf_hooks";
import { isThenable } from "../shared/async.js";
import { abortReason } from "./cancellation.js";
import { HookTimeoutError } from "./errors.js";
import { expiryQueueFor, type Expiring, type ExpiryQueue } from "./expiryQueue.js";

/** The option key a HookEvent hands its Deadline to the registry under (not part of the public API). */
export const DEADLINE_OPTION: unique symbol = Symbol("hooklens.deadline");

/**
 * A HookEvent's time limit plus its caller's signal. It costs nothing until a handler is
 * actually pending: a sync handler never touches a timer. A pending one joins the shared
 * {@link ExpiryQueue} of its duration (no timer of its own) until it settles. `signal` is created
 * on first read, so handlers that ignore it pay nothing either.
 */
export class Deadline implements Expiring {
  readonly #seconds: number | null;
  readonly #outer: AbortSignal | undefined;
  /** performance.now() ms the time limit counts from; -1: from when a handler is found pending. */
  readonly #startMs: number;
  #controller: AbortController | null = null;
  #expired = false;
  #timeoutError: HookTimeoutError | null = null;
  /** The pending watch's error callback, until it is called or the deadline is cleared. */
  #onError: ((error: unknown) => void) | null = null;
  #onOuterAbort: (() => void) | null = null;
  #cleared = false;
  // Expiring: the slots an ExpiryQueue links this deadline through.
  expiresAt = 0;
  prevExpiring: Expiring | null = null;
  nextExpiring: Expiring | null = null;
  queue: ExpiryQueue | null = null;

  constructor(seconds: number | null, outer?: AbortSignal, startMs = -1) {
    this.#seconds = seconds !== null && Number.isFinite(seconds) ? seconds : null;
    this.#outer = outer;
    this.#startMs = startMs;
  }

  /** The time limit passed. */
  get expired(): boolean {
    return this.#expired;
  }

  /** The time limit passed or the caller cancelled. */
  get aborted(): boolean {
    return this.#expired || (this.#outer?.aborted ?? false);
  }

  /** An AbortSignal that aborts when this deadline does (with a HookTimeoutError) or the caller's signal does. */
  get signal(): AbortSignal {
    if (!this.#controller) {
      const controller = (this.#controller = new AbortController());
      if (this.#expired) controller.abort(this.timeoutError());
      else if (this.#outer?.aborted) controller.abort(abortReason(this.#outer));
      else this.#listenToOuter();
    }
    return this.#controller.signal;
  }

  /** Why it aborted: the timeout error, or the caller's abort reason. */
  reason(): unknown {
    return this.#expired || !this.#outer ? this.timeoutError() : abortReason(this.#outer);
  }

  timeoutError(): HookTimeoutError {
    return (this.#timeoutError ??= new HookTimeoutError(`Hook did not finish within ${this.#seconds} s`));
  }

  /** Settles like `value`, unless the deadline passes or the caller cancels while it is pending. */
  race(value: unknown): unknown {
    if (!isThenable(value)) return value;
    const outer = this.#outer;
    if (outer?.aborted) {
      Promise.resolve(value).catch(ignore);
      return Promise.reject(abortReason(outer));
    }
    if (this.#seconds === null && !outer) return value;
    return new Promise<unknown>((resolve, reject) => this.watch(value, resolve, reject));
  }

  /**
   * `race` without a promise of its own: calls `onValue` or `onError` (exactly one, once) with
   * how `pending` settles, or `onError` with the timeout error or the caller's abort reason if
   * either comes first. The callback may run before `watch` returns.
   */
  watch(pending: PromiseLike<unknown>, onValue: (value: unknown) => void, onError: (error: unknown) => void): void {
    const outer = this.#outer;
    if (outer?.aborted) {
      Promise.resolve(pending).catch(ignore);
      onError(abortReason(outer));
      return;
    }
    if (this.#seconds === null && !outer) {
      pending.then(onValue, onError);
      return;
    }
    this.#onError = onError;
    if (this.#seconds !== null) {
      const ms = Math.max(0, this.#seconds * 1000);
      expiryQueueFor(ms).add(this, (this.#startMs >= 0 ? this.#startMs : performance.now()) + ms);
    }
    if (outer) this.#listenToOuter();
    pending.then(
      (value) => {
        if (this.#onError === null) return; // the deadline or the caller came first
        this.clear();
        onValue(value);
      },
      (error: unknown) => {
        if (this.#onError === null) return;
        this.clear();
        onError(error);
      },
    );
  }

  /** Leaves the expiry queue and detaches from the caller's signal. */
  clear(): void {
    this.#cleared = true;
    this.queue?.remove(this);
    this.#onError = null;
    if (this.#onOuterAbort) this.#outer?.removeEventListener("abort", this.#onOuterAbort);
    this.#onOuterAbort = null;
  }

  /** The time limit passed (called by the expiry queue). */
  expire(): void {
    this.#expired = true;
    const error = this.timeoutError();
    const onError = this.#onError;
    this.#onError = null;
    this.#controller?.abort(error);
    onError?.(error);
  }

  #listenToOuter(): void {
    const outer = this.#outer;
    // After clear() nothing may stay attached to a caller's (possibly long-lived) signal.
    if (!outer || this.#onOuterAbort || this.#cleared) return;
    this.#onOuterAbort = () => {
      const reason = abortReason(outer);
      const onError = this.#onError;
      this.#onError = null;
      this.queue?.remove(this);
      this.#controller?.abort(reason);
      onError?.(reason);
    };
    outer.addEventListener("abort", this.#onOuterAbort, { once: true });
  }
}

function ignore(): void {}

/**
 * Handler params whose `signal` is read from a Deadline on demand (not an own, enumerable key).
 * Params made with no Deadline make theirs only when something needs it (the handler reading
 * `signal`, or a pending handler to watch), so a handler that returns at once costs none.
 */
export class DeadlineParams {
  #deadline: Deadline | null;
  readonly #seconds: number | null;
  readonly #outer: AbortSignal | undefined;
  readonly #startMs: number;
  #closed = false;

  constructor(deadline: Deadline | null, seconds: number | null = null, outer?: AbortSignal, startMs = -1) {
    this.#deadline = deadline;
    this.#seconds = seconds;
    this.#outer = outer;
    this.#startMs = startMs;
  }

  get signal(): AbortSignal {
    return DeadlineParams.deadlineOf(this).signal;
  }

  /** @internal The params' Deadline, made now if they have none yet (already cleared once the run is over). */
  static deadlineOf(params: DeadlineParams): Deadline {
    let deadline = params.#deadline;
    if (deadline === null) {
      deadline = params.#deadline = new Deadline(params.#seconds, params.#outer, params.#startMs);
      if (params.#closed) deadline.clear();
    }
    return deadline;
  }

  /** @internal The params' Deadline if one was made. */
  static peek(params: DeadlineParams): Deadline | null {
    return params.#deadline;
  }

  /** @internal The run is over: its Deadline (now or when made later) is cleared. */
  static close(params: DeadlineParams): void {
    params.#closed = true;
    params.#deadline?.clear();
  }
}
