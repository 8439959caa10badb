import type { SessionObserver } from "../session/observer.js";
import type { Signal } from "../session/signal.js";
import { getLogger } from "../shared/log.js";
import type { CallbackError, CallbackOutcome } from "./signals.js";

/** How one observed call ended, handed to the signal builder. */
export interface CallEnd {
  readonly outcome: CallbackOutcome;
  readonly output: unknown;
  readonly error: CallbackError | null;
  readonly durationMs: number;
  /** POSIX seconds the call started: the signal's time. */
  readonly createdAt: number;
}

/**
 * Calls `invoke` and records the signal `build` makes of its end, once it returns or throws. A call
 * that ends after the SDK aborted it is recorded as aborted (a timeout when `timeoutSeconds` had
 * passed). No abort listener is added: it cost more than the rest of the recording together, so a
 * callback that never settles is not recorded. What `invoke` returns or throws reaches the caller
 * unchanged; recording never throws into it.
 */
export function observeCall<T>(
  observer: SessionObserver,
  abort: AbortSignal | undefined,
  timeoutSeconds: number | null,
  invoke: () => T,
  build: (end: CallEnd) => Signal,
): T {
  // No function is stored in a variable here: the runtime is bundled with its names kept, and a
  // named closure per call would be named at run time too (a measurable part of the cost).
  const startedAt = performance.now();
  let result: T;
  try {
    result = invoke();
  } catch (error) {
    finish(observer, abort, timeoutSeconds, build, startedAt, null, errorOf(error));
    throw error;
  }
  if (!isThenable(result)) {
    finish(observer, abort, timeoutSeconds, build, startedAt, result, null);
    return result;
  }
  return (result instanceof Promise ? result : Promise.resolve(result)).then(
    (value: unknown) => {
      finish(observer, abort, timeoutSeconds, build, startedAt, value, null);
      return value;
    },
    (error: unknown) => {
      finish(observer, abort, timeoutSeconds, build, startedAt, null, errorOf(error));
      throw error;
    },
  ) as T;
}

function finish(
  observer: SessionObserver,
  abort: AbortSignal | undefined,
  timeoutSeconds: number | null,
  build: (end: CallEnd) => Signal,
  startedAt: number,
  output: unknown,
  error: CallbackError | null,
): void {
  try {
    const durationMs = performance.now() - startedAt;
    let outcome: CallbackOutcome = error === null ? "returned" : "threw";
    if (abort?.aborted === true) outcome = timeoutSeconds !== null && durationMs >= timeoutSeconds * 1000 * 0.95 ? "timeout" : "aborted";
    observer.emit(build({ outcome, output, error, durationMs, createdAt: (performance.timeOrigin + startedAt) / 1000 })).catch(logFailure);
  } catch (failure) {
    logFailure(failure);
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === "object" || typeof value === "function") && value !== null && typeof (value as { then?: unknown }).then === "function";
}

function errorOf(error: unknown): CallbackError {
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: "Error", message: typeof error === "string" ? error : "a non-Error value was thrown" };
}

/** Records the built signal; a failure to build or record is logged, never raised into the SDK. */
export function record(observer: SessionObserver, make: () => Signal): void {
  try {
    observer.emit(make()).catch(logFailure);
  } catch (error) {
    logFailure(error);
  }
}

function logFailure(error: unknown): void {
  getLogger().warn(`HookLens: recording a Claude Agent SDK call failed: ${error instanceof Error ? error.message : String(error)}`);
}
