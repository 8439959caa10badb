import { getLogger } from "../shared/log.js";
import type { Signal } from "../session/signal.js";
import type { SignalRecorder } from "../signals/signalRecorder.js";

/**
 * Hands `signal` to `signals` without waiting and without ever throwing: the bridge runs inside
 * the SDK's listeners and tracing processors, where an exception would reach the run.
 */
export function record(signals: SignalRecorder, signal: Signal): void {
  try {
    const out = signals.emit(signal);
    if (out !== null && typeof out === "object" && typeof (out as PromiseLike<unknown>).then === "function") {
      (out as Promise<unknown>).then(undefined, logFailure);
    }
  } catch (error) {
    logFailure(error);
  }
}

function logFailure(error: unknown): void {
  try {
    getLogger().error({ err: error }, "HookLens could not record an OpenAI Agents signal");
  } catch {
    // Nothing left to tell.
  }
}
