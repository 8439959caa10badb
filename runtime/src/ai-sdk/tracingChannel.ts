import { tracingChannel, type TracingChannelSubscribers } from "node:diagnostics_channel";
import { optionsObject } from "../shared/arguments.js";
import { getLogger } from "../shared/log.js";
import { newId } from "../shared/ids.js";
import type { SignalRecorder } from "../signals/signalRecorder.js";
import { bridgeRecorder, currentCall } from "./callContext.js";
import { recordChannelEnd, recordChannelStart, type ChannelMessage, type OpenCall } from "./channelCalls.js";

/** The tracing channel AI SDK 7 publishes its operations on (`AI_SDK_TELEMETRY_TRACING_CHANNEL`). */
export const AI_SDK_TRACING_CHANNEL = "ai:telemetry";

export interface ObserveAiSdkOptions {
  /** Where the calls are recorded; default as for {@link hookLensMiddleware}. */
  readonly signals?: SignalRecorder | null;
}

/**
 * Records every operation AI SDK 7 runs in this process (generateText, streamText, each step,
 * each language model call, each tool execution, embeddings…) from the SDK's own diagnostics
 * channel: no change to the calls, no telemetry integration to register (the SDK publishes on the
 * channel whatever integrations a call names, unless its telemetry says `isEnabled: false`).
 * Calls nest: what runs inside a step or a tool execution names it as its parent. Returns the
 * function that stops recording. Without a recorder (no `signals`, no live view, no
 * OpenTelemetry) it subscribes to nothing.
 */
export function observeAiSdk(options?: ObserveAiSdkOptions): () => void {
  const signals = bridgeRecorder(optionsObject(options, "observeAiSdk(options)").signals);
  if (signals === null) return () => {};
  const channel = tracingChannel<string, ChannelMessage>(AI_SDK_TRACING_CHANNEL);
  const open = new WeakMap<object, OpenCall>();
  const ended = (message: ChannelMessage): void => {
    const call = open.get(message);
    if (call === undefined) return;
    open.delete(message);
    guarded(() => recordChannelEnd(signals, call, message));
  };
  // The store is entered around the traced work, so everything it runs (a nested step, a
  // model call the middleware records, a tool's own generateText) sees this call as its parent.
  const transform = (message: ChannelMessage): string => {
    const callId = newId();
    const parent = currentCall.getStore() ?? null;
    guarded(() => open.set(message, recordChannelStart(signals, callId, message, parent)));
    return callId;
  };
  const subscribers: TracingChannelSubscribers<ChannelMessage> = {
    start: () => {},
    end: () => {},
    asyncStart: () => {},
    asyncEnd: ended,
    error: () => {},
  };
  channel.start.bindStore(currentCall, transform);
  channel.subscribe(subscribers);
  return () => {
    channel.unsubscribe(subscribers);
    channel.start.unbindStore(currentCall);
  };
}

function guarded(work: () => void): void {
  try {
    work();
  } catch (error) {
    getLogger().error({ err: error }, `HookLens could not record an AI SDK call: ${error instanceof Error ? error.message : String(error)}`);
  }
}
