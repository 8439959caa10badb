import { getLogger } from "../shared/log.js";
import { isThenable } from "../shared/async.js";
import { describeError } from "../session/describe.js";
import type { Signal } from "../session/signal.js";

/**
 * @internal The key of a recorder's `emit` for callers that discard its result (see
 * `SessionObserver[RECORD_SIGNAL]`): the same recording, undefined instead of a promise when
 * nothing waits. It may throw where `emit` would reject.
 */
export const RECORD_SIGNAL: unique symbol = Symbol("hooklens.recordSignal");

/** @internal The key of a Branch's `emitAndLog` for callers that discard its result, as {@link RECORD_SIGNAL} is for `emit`. */
export const LOG_AND_RECORD: unique symbol = Symbol("hooklens.logAndRecord");

/**
 * @internal The key of a recorder's deferred recording (a Branch's, a SessionObserver's): the
 * signal `maker` builds from `source` is recorded, but built only when something reads it (see
 * `SessionObserver[RECORD_DEFERRED]`); what `emit` would be given otherwise. May throw where
 * `emit` would reject.
 */
export const RECORD_DEFERRED: unique symbol = Symbol("hooklens.recordDeferred");

/**
 * @internal How the runtime's own recordings build their signal, so that a recorder can keep the
 * parts and build the signal only when it is read. Makers are module constants, one per kind.
 */
export interface SignalMaker<S = never> {
  /** What `emit` would be given for `source` (a recorder with its own `emit` is called with it). */
  event(source: S): unknown;
  /**
   * The signal for `source`, with `metadata.branchId` set when `branchId` is given (as a Branch
   * tags what it emits) and created at `createdAt` (POSIX seconds) when given, now otherwise.
   */
  build(source: S, branchId: string | undefined, createdAt: number | undefined): Signal;
}

/** Where a scope records signals: a SessionObserver, a Session or a Branch. */
export interface SignalRecorder {
  emit(event: unknown): unknown;
  /** @internal */
  [RECORD_SIGNAL]?(event: unknown): PromiseLike<unknown> | undefined;
  /** @internal */
  [RECORD_DEFERRED]?<S>(maker: SignalMaker<S>, source: S): PromiseLike<unknown> | undefined;
}

/**
 * Hands `signal` to `recorder` without waiting: a failing or slow recorder is logged, never
 * raised into the call being recorded. An observer without a gate stores the signal before its
 * `emit` returns, so signals recorded this way keep their order.
 */
export function recordTo(recorder: SignalRecorder, signal: unknown): void {
  try {
    const out = recordWith(recorder, signal);
    if (out !== undefined && isThenable(out)) Promise.resolve(out).catch(logFailure);
  } catch (error) {
    logFailure(error);
  }
}

/**
 * {@link recordTo} for the signal `maker` builds from `source`: a recorder that can defer it keeps
 * the parts and builds it when read; any other records `maker.event(source)` as `recordTo` does.
 */
export function recordDeferredTo<S>(recorder: SignalRecorder, maker: SignalMaker<S>, source: S): void {
  try {
    const out = recordDeferredWith(recorder, maker, source);
    if (out !== undefined && isThenable(out)) Promise.resolve(out).catch(logFailure);
  } catch (error) {
    logFailure(error);
  }
}

/** {@link recordWith} for a deferred recording: undefined when nothing waits. May throw. */
export function recordDeferredWith<S>(recorder: SignalRecorder, maker: SignalMaker<S>, source: S): unknown {
  const defer = recorder[RECORD_DEFERRED];
  return defer === undefined ? recordWith(recorder, maker.event(source)) : defer.call(recorder, maker, source);
}

/** `recorder.emit(event)`, through its result-free form when it has one: undefined when nothing waits. May throw. */
export function recordWith(recorder: SignalRecorder, event: unknown): unknown {
  const record = recorder[RECORD_SIGNAL];
  return record === undefined ? recorder.emit(event) : record.call(recorder, event);
}

function logFailure(error: unknown): void {
  getLogger().error({ err: error }, `Could not record a signal: ${describeError(error)}`);
}
