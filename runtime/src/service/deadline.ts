import { isThenable } from "../shared/async.js";
import { abortReason } from "./cancellation.js";
import { HookTimeoutError } from "./errors.js";

/** The option key a HookEvent hands its Deadline to the registry under (not part of the public API). */
export const DEADLINE_OPTION: unique symbol = Symbol("hooklens.deadline");

const PENDING: unique symbol = Symbol("pending");
const PENDING_PROBE: Promise<typeof PENDING> = Promise.resolve(PENDING);

/**
 * A HookEvent's time limit plus its caller's signal. It costs nothing until a handler is
 * actually pending: a sync handler, or an async one that has already settled, never arms a
 * timer. `signal` is created on first read, so handlers that ignore it pay nothing either.
 */
export class Deadline {
  readonly #seconds: number | null;
  readonly #outer: AbortSignal | undefined;
  #controller: AbortController | null = null;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #expired = false;
  #timeoutError: HookTimeoutError | null = null;
  #reject: ((reason: unknown) => void) | null = null;
  #onOuterAbort: (() => void) | null = null;
  #cleared = false;

  constructor(seconds: number | null, outer?: AbortSignal) {
    this.#seconds = seconds !== null && Number.isFinite(seconds) ? seconds : null;
    this.#outer = outer;
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
    if (this.#outer?.aborted) {
      Promise.resolve(value).catch(ignore);
      return Promise.reject(abortReason(this.#outer));
    }
    if (this.#seconds === null && !this.#outer) return value;
    return Promise.race([value, PENDING_PROBE]).then((first) => (first === PENDING ? this.#armed(value) : first));
  }

  /** Stops the timer and detaches from the caller's signal. */
  clear(): void {
    this.#cleared = true;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.#reject = null;
    if (this.#onOuterAbort) this.#outer?.removeEventListener("abort", this.#onOuterAbort);
    this.#onOuterAbort = null;
  }

  #armed(pending: PromiseLike<unknown>): Promise<unknown> {
    return new Promise<unknown>((resolve, reject) => {
      if (this.#outer?.aborted) {
        // The caller cancelled between the settle probe and now.
        pending.then(undefined, ignore);
        reject(abortReason(this.#outer));
        return;
      }
      this.#reject = reject;
      if (this.#seconds !== null) this.#timer = setTimeout(() => this.#expire(), Math.max(0, this.#seconds * 1000));
      this.#listenToOuter();
      pending.then(
        (value) => {
          this.clear();
          resolve(value);
        },
        (error: unknown) => {
          this.clear();
          reject(error);
        },
      );
    });
  }

  #expire(): void {
    this.#expired = true;
    this.#timer = null;
    const error = this.timeoutError();
    this.#controller?.abort(error);
    this.#reject?.(error);
  }

  #listenToOuter(): void {
    const outer = this.#outer;
    // After clear() nothing may stay attached to a caller's (possibly long-lived) signal.
    if (!outer || this.#onOuterAbort || this.#cleared) return;
    this.#onOuterAbort = () => {
      const reason = abortReason(outer);
      this.#controller?.abort(reason);
      this.#reject?.(reason);
    };
    outer.addEventListener("abort", this.#onOuterAbort, { once: true });
  }
}

function ignore(): void {}

/** Handler params whose `signal` is read from a Deadline on demand (not an own, enumerable key). */
export class DeadlineParams {
  readonly #deadline: Deadline;

  constructor(deadline: Deadline) {
    this.#deadline = deadline;
  }

  get signal(): AbortSignal {
    return this.#deadline.signal;
  }
}
