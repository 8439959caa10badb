import { isThenable, RESOLVED } from "../shared/async.js";
import { recordDeferredWith, recordWith, type SignalMaker } from "../signals/signalRecorder.js";
import { requireObject } from "../shared/arguments.js";
import { getLogger } from "../shared/log.js";
import { programName } from "../shared/program.js";
import { describeError } from "./describe.js";
import type { HookHandler, HookSignalRecorder } from "./hookBus.js";
import { HookPoint } from "./hookPoint.js";
import type { HookPayload } from "./payloads.js";
import { HookSignal, madeInit } from "./signal.js";
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
export function handlerThrew(error: unknown, point: HookPoint, blocking: boolean, handler?: HookHandler): boolean {
  if (error instanceof StopHook) return true;
  if (blocking) {
    if (handler !== undefined && typeof error === "object" && error !== null) blockers.set(error, handler);
    throw error;
  }
  getLogger().error({ err: error, point }, `Hook failed at ${point}: ${describeError(error)}`);
  return false;
}

/** Which handler threw a blocking chain's error: the audit record of a denied call names it. */
const blockers = new WeakMap<object, HookHandler>();

/** The handler whose error stopped a blocking chain (TOOL_PRE), when the error is an object. */
export function blockingHandlerOf(error: unknown): HookHandler | undefined {
  return typeof error === "object" && error !== null ? blockers.get(error) : undefined;
}

/**
 * Records a HookSignal through `observer`; a failure is logged and swallowed. The promise settles
 * when the recording is over. Without subscribers to wait for, that is now: the shared settled
 * {@link RESOLVED} is returned, no async frame or emit result is made (two per act() call), and
 * a caller may skip awaiting it, so a recorded point costs no more turns than an unrecorded one.
 */
export function recordHookSignal(observer: HookSignalRecorder, point: HookPoint, args: HookPayload): Promise<void> {
  let pending: unknown;
  try {
    if (point === HookPoint.SESSION_START) {
      // A session's start names the program that ran it: recordings are listed by it.
      pending = recordWith(observer, new HookSignal(point, args, { metadata: { program: programName() } }));
    } else {
      // The payload as it is now (as the signal's own copy would be), the signal built when read.
      if (typeof args !== "object" || args === null) requireObject(args, "new HookSignal(point, payload, init)", "payload");
      pending = recordDeferredWith(observer, HOOK_SIGNALS[point], { ...args });
    }
  } catch (error) {
    logRecordFailure(error, point);
    return RESOLVED;
  }
  if (pending === undefined || !isThenable(pending)) return RESOLVED;
  return Promise.resolve(pending).then(settleQuietly, RECORD_FAILURE_LOGGERS[point]);
}

/** Per point, the maker of its HookSignal from a copy of the payload. */
const HOOK_SIGNALS = Object.fromEntries(
  Object.values(HookPoint).map((point): [HookPoint, SignalMaker<HookPayload>] => [
    point,
    {
      event: (payload) => new HookSignal(point, payload),
      build: (payload, branchId, createdAt) => new HookSignal(point, payload, madeInit(branchId, createdAt)),
    },
  ]),
) as Record<HookPoint, SignalMaker<HookPayload>>;

function logRecordFailure(error: unknown, point: HookPoint): void {
  getLogger().error({ err: error, point }, `HookBus could not record ${point}: ${describeError(error)}`);
}

/** What {@link runHandlers} returns to a running chain that is now waiting on a thenable. */
const WAITING: Promise<void> = Promise.resolve();

/**
 * Runs `handlers` from `start` in order while they return no thenable, and returns undefined once
 * the chain is over (every handler ran, or one raised StopHook). At the first thenable: with no
 * `chain` yet (an emission still synchronous) it returns the promise of a new chain; inside a
 * running `chain` it makes that chain wait on it. A blocking chain's failure is thrown.
 */
export function runHandlers(
  handlers: readonly HookHandler[],
  start: number,
  args: HookPayload,
  point: HookPoint,
  blocking: boolean,
  recordInto: ChainRecording | null,
  chain: PendingChain | null,
): Promise<void> | undefined {
  for (let i = start, count = handlers.length; i < count; i++) {
    const handler = handlers[i]!;
    let result: unknown;
    try {
      result = handler(args);
      // A throwing `then` getter counts as the handler's failure, as it would under `await`.
      if (result === undefined || !isThenable(result)) continue;
    } catch (error) {
      if (handlerThrew(error, point, blocking, handler)) return undefined;
      continue;
    }
    if (chain === null) return continueChain(handlers, i, result as PromiseLike<unknown>, args, point, blocking, recordInto);
    chain.waitAt(i, result as PromiseLike<unknown>);
    return WAITING;
  }
  return undefined;
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
    const failed = blocking ? (error: unknown): void => void handlerThrew(error, point, true, handlers[index]) : FAILURE_LOGGERS[point];
    return (pending as Promise<unknown>).then(settleQuietly, failed);
  }
  const promise = new Promise<void>(captureSettlers);
  const chain = new PendingChain(handlers, args, point, blocking, recordInto, capturedResolve!, capturedReject!);
  capturedResolve = capturedReject = undefined;
  chain.waitAt(index, pending);
  return promise;
}

// `new Promise(captureSettlers)` hands its settle functions over through these two slots, read
// right after: a module-level executor, so no executor closure is made per emission.
let capturedResolve: ((value: Promise<void> | undefined) => void) | undefined;
let capturedReject: ((error: unknown) => void) | undefined;

function captureSettlers(resolve: (value: Promise<void> | undefined) => void, reject: (error: unknown) => void): void {
  capturedResolve = resolve;
  capturedReject = reject;
}

/**
 * The state of one emission that went asynchronous. Its two callbacks are made once per emission
 * (in the constructor, so no name-keeping transform wraps them) and reused for every wait. Its
 * fields are only declared and then assigned in the constructor: emitted class fields would
 * first define every one as undefined, a second shape change per emission.
 */
class PendingChain {
  declare readonly handlers: readonly HookHandler[];
  declare readonly args: HookPayload;
  declare readonly point: HookPoint;
  declare readonly blocking: boolean;
  declare readonly recordInto: ChainRecording | null;
  declare readonly resolve: (value: Promise<void> | undefined) => void;
  declare readonly reject: (error: unknown) => void;
  declare readonly next: () => void;
  declare readonly failed: (error: unknown) => void;
  /** The handler whose thenable the chain waits on. */
  declare index: number;

  constructor(
    handlers: readonly HookHandler[],
    args: HookPayload,
    point: HookPoint,
    blocking: boolean,
    recordInto: ChainRecording | null,
    resolve: (value: Promise<void> | undefined) => void,
    reject: (error: unknown) => void,
  ) {
    this.handlers = handlers;
    this.args = args;
    this.point = point;
    this.blocking = blocking;
    this.recordInto = recordInto;
    this.resolve = resolve;
    this.reject = reject;
    this.next = () => this.runAfterWait();
    this.failed = (error) => this.afterRejection(error);
    this.index = -1;
  }

  /** Continues once the thenable of handler `index` settles; a foreign thenable is adopted the way `await` does. */
  waitAt(index: number, pending: PromiseLike<unknown>): void {
    this.index = index;
    void (pending.constructor === Promise ? (pending as Promise<unknown>) : Promise.resolve(pending)).then(this.next, this.failed);
  }

  private runAfterWait(): void {
    try {
      const { handlers, index, args, point, blocking, recordInto } = this;
      if (runHandlers(handlers, index + 1, args, point, blocking, recordInto, this) === undefined) this.finish();
    } catch (error) {
      // A blocking failure, or a throwing logger: the emission rejects with it.
      this.reject(error);
    }
  }

  private afterRejection(error: unknown): void {
    try {
      if (handlerThrew(error, this.point, this.blocking, this.handlers[this.index])) return this.finish();
    } catch (thrown) {
      return this.reject(thrown);
    }
    this.runAfterWait();
  }

  // Records only if an observer is bound now, when the chain is over.
  private finish(): void {
    const observer = this.recordInto === null ? null : this.recordInto.observer;
    this.resolve(observer === null ? undefined : recordHookSignal(observer, this.point, this.args));
  }
}

function settleQuietly(): void {}

/** Per point, a handler made once rather than per emission. */
function perPoint(make: (point: HookPoint) => (error: unknown) => void): Record<HookPoint, (error: unknown) => void> {
  return Object.fromEntries(Object.values(HookPoint).map((point) => [point, make(point)])) as Record<HookPoint, (error: unknown) => void>;
}

/** The rejection handler of a non-blocking chain's last promise. */
const FAILURE_LOGGERS = perPoint((point) => (error) => void handlerThrew(error, point, false));
/** The rejection handler of a HookSignal recording that waited for async subscribers. */
const RECORD_FAILURE_LOGGERS = perPoint((point) => (error) => logRecordFailure(error, point));
