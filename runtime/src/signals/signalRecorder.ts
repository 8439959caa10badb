import { getLogger } from "../shared/log.js";
import { isThenable } from "../shared/async.js";
import { describeError } from "../session/describe.js";

/**
 * @internal The key of a recorder's `emit` for callers that discard its result (see
 * `SessionObserver[RECORD_SIGNAL]`): the same recording, undefined instead of a promise when
 * nothing waits. It may throw where `emit` would reject.
 */
export const RECORD_SIGNAL: unique symbol = Symbol("hooklens.recordSignal");

/** @internal The key of a Branch's `emitAndLog` for callers that discard its result, as {@link RECORD_SIGNAL} is for `emit`. */
export const LOG_AND_RECORD: unique symbol = Symbol("hooklens.logAndRecord");

/** Where a scope records signals: a SessionObserver, a Session or a Branch. */
export interface SignalRecorder {
  emit(event: unknown): unknown;
  /** @internal */
  [RECORD_SIGNAL]?(event: unknown): PromiseLike<unknown> | undefined;
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

/** `recorder.emit(event)`, through its result-free form when it has one: undefined when nothing waits. May throw. */
export function recordWith(recorder: SignalRecorder, event: unknown): unknown {
  const record = recorder[RECORD_SIGNAL];
  return record === undefined ? recorder.emit(event) : record.call(recorder, event);
}

function logFailure(error: unknown): void {
  getLogger().error({ err: error }, `Could not record a signal: ${describeError(error)}`);
}
