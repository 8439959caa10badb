import { getLogger } from "../shared/log.js";
import { isThenable } from "../shared/async.js";
import { describeError } from "../session/describe.js";

/** Where a scope records signals: a SessionObserver, a Session or a Branch. */
export interface SignalRecorder {
  emit(event: unknown): unknown;
}

/**
 * Hands `signal` to `recorder` without waiting: a failing or slow recorder is logged, never
 * raised into the call being recorded. An observer without a gate stores the signal before its
 * `emit` returns, so signals recorded this way keep their order.
 */
export function recordTo(recorder: SignalRecorder, signal: unknown): void {
  try {
    const out = recorder.emit(signal);
    if (isThenable(out)) Promise.resolve(out).catch(logFailure);
  } catch (error) {
    logFailure(error);
  }
}

function logFailure(error: unknown): void {
  getLogger().error({ err: error }, `Could not record a signal: ${describeError(error)}`);
}
