import { AsyncLocalStorage } from "node:async_hooks";
import { newId } from "../shared/ids.js";
import { processRecorder } from "../signals/environmentRecorder.js";
import type { SignalRecorder } from "../signals/signalRecorder.js";

/** The AI SDK call (operation, step, model call, tool execution) the code running now is inside. */
export const currentCall = new AsyncLocalStorage<string>();

/** The id of the call the code running now is inside, or null at the top. */
export function parentCallId(): string | null {
  return currentCall.getStore() ?? null;
}

/**
 * One session for every AI SDK call the process records without a recorder of its own, so the
 * calls the diagnostics channel reports and the model calls the middleware sees nest in one tree.
 */
let processSessionId: string | null = null;

/** Where the bridge records: the recorder given, else the process's live/OpenTelemetry recorder (null when neither is on). */
export function bridgeRecorder(signals: SignalRecorder | null | undefined): SignalRecorder | null {
  if (signals !== undefined) return signals;
  processSessionId ??= newId();
  return processRecorder(processSessionId);
}
