import { isThenable } from "../shared/async.js";
import { getLogger } from "../shared/log.js";
import { describeError } from "./describe.js";
import type { HookHandler, HookSignalRecorder } from "./hookBus.js";
import { HookPoint } from "./hookPoint.js";
import type { HookPayload } from "./payloads.js";
import { HookSignal } from "./signal.js";
import { StopHook } from "./stopHook.js";

/** Whatever a chain records into once it completes: the bus, read at that moment (null: record nothing). */
export interface ChainRecording {
  readonly observer: HookSignalRecorder | null;
}

/**
 * Decides what a handler's error does to its chain: true for a StopHook (end the chain quietly);
 * a rethrow when the chain is blocking; otherwise the failure is logged and false lets the next
 * handler run.
 */
export function handlerThrew(error: unknown, point: HookPoint, blocking: boolean): boolean {
  if (error instanceof StopHook) return true;
  if (blocking) throw error;
  getLogger().error({ err: error, point }, `Hook failed at ${point}: ${describeError(error)}`);
  return false;
}

// Where runUntilThenable leaves the thenable it stopped at: handing it back through a slot rather
// than a returned pair allocates nothing per emission. Taken (and cleared) right after the call.
let stoppedAt: PromiseLike<unknown> | undefined;

/**
 * Runs `handlers` from `start` in order while they return no thenable. Returns the index of the
 * first handler that returned one (collect it with {@link takeThenable}), or -1 once the chain is
 * over: every handler ran, or one raised StopHook. A blocking chain's failure is thrown.
 */
export function runUntilThenable(handlers: readonly HookHandler[], start: number, args: HookPayload, point: HookPoint, blocking: boolean): number {
  for (let i = start, count = handlers.length; i < count; i++) {
    const handler = handlers[i]!;
    let result: unknown;
    try {
      result = handler(args);
      // A throwing `then` getter counts as the handler's failure, as it would under `await`.
      if (result === undefined || !isThenable(result)) continue;
    } catch (error) {
      if (handlerThrew(error, point, blocking)) return -1;
      continue;
    }
    stoppedAt = result as PromiseLike<unknown>;
    return i;
  }
  return -1;
}

/** The thenable the last {@link runUntilThenable} call stopped at. */
export function takeThenable(): PromiseLike<unknown> {
  const thenable = stoppedAt!;
  stoppedAt = undefined;
  return thenable;
}

/** Records a HookSignal through `observer`; a failure is logged and swallowed. */
export async function recordHookSignal(observer: HookSignalRecorder, point: HookPoint, args: HookPayload): Promise<void> {
  try {
    await observer.emit(new HookSignal(point, args));
  } catch (error) {
    getLogger().error({ err: error, point }, `HookBus could not record ${point}: ${describeError(error)}`);
  }
}

/**
 * Finishes a chain whose handler at `index` returned the thenable `pending`: waits for it, runs
 * the remaining handlers (synchronously while they return no promise), then records when
 * `recordInto` has an observer bound at that moment. Each wait is one `then` on the awaited
 * value, as `await` would do, without an async function's continuation around it.
 */
export function continueChain(
  handlers: readonly HookHandler[],
  index: number,
  pending: PromiseLike<unknown>,
  args: HookPayload,
  point: HookPoint,
  blocking: boolean,
  recordInto: ChainRecording | null,
): Promise<void> {
  // The last handler's own promise with nothing to record: one `then` settles the emission.
  if (index === handlers.length - 1 && pending.constructor === Promise && (recordInto === null || recordInto.observer === null)) {
    return (pending as Promise<unknown>).then(settleQuietly, blocking ? rethrowUnlessStop : FAILURE_LOGGERS[point]);
  }
  return new Promise<void>((resolve, reject) => {
    const chain = new PendingChain(handlers, index, args, point, blocking, recordInto, resolve, reject);
    chain.wait(pending);
  });
}

/**
 * The state of one emission that went asynchronous. Its two callbacks are made once per emission
 * (in the constructor, so no name-keeping transform wraps them) and reused for every wait.
 */
class PendingChain {
  readonly next: () => void;
  readonly failed: (error: unknown) => void;
  #index: number;

  constructor(
    readonly handlers: readonly HookHandler[],
    index: number,
    readonly args: HookPayload,
    readonly point: HookPoint,
    readonly blocking: boolean,
    readonly recordInto: ChainRecording | null,
    readonly resolve: (value: Promise<void> | undefined) => void,
    readonly reject: (error: unknown) => void,
  ) {
    this.#index = index;
    this.next = () => this.#runFrom(this.#index + 1);
    this.failed = (error) => this.#afterRejection(error);
  }

  /** Continues once `pending` settles. Promise.resolve adopts a foreign thenable the way `await` does. */
  wait(pending: PromiseLike<unknown>): void {
    void Promise.resolve(pending).then(this.next, this.failed);
  }

  // Runs handlers from `start` while they return no promise; waits on the first that does.
  #runFrom(start: number): void {
    try {
      const index = runUntilThenable(this.handlers, start, this.args, this.point, this.blocking);
      if (index < 0) return this.#finish();
      this.#index = index;
      this.wait(takeThenable());
    } catch (error) {
      // A blocking failure, or a throwing logger: the emission rejects with it.
      this.reject(error);
    }
  }

  #afterRejection(error: unknown): void {
    try {
      if (handlerThrew(error, this.point, this.blocking)) return this.#finish();
    } catch (thrown) {
      return this.reject(thrown);
    }
    this.#runFrom(this.#index + 1);
  }

  // Records only if an observer is bound now, when the chain is over.
  #finish(): void {
    const observer = this.recordInto === null ? null : this.recordInto.observer;
    this.resolve(observer === null ? undefined : recordHookSignal(observer, this.point, this.args));
  }
}

function settleQuietly(): void {}

function rethrowUnlessStop(error: unknown): void {
  if (!(error instanceof StopHook)) throw error;
}

/** Per point, the rejection handler of a non-blocking chain's last promise, made once rather than per emission. */
const FAILURE_LOGGERS = Object.fromEntries(
  Object.values(HookPoint).map((point) => [
    point,
    (error: unknown): void => {
      handlerThrew(error, point, false);
    },
  ]),
) as Record<HookPoint, (error: unknown) => void>;
