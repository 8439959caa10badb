import { performance } from "node:perf_hooks";
import { ModelCallFinished, ModelCallStarted, ToolCallFinished, ToolCallStarted, callError } from "../signals/callSignals.js";
import { recordTo, type SignalRecorder } from "../signals/signalRecorder.js";
import { finishReasonOf, record, requestOf, stringOf, toolCallsIn, usageOf } from "./readFields.js";

/** What the AI SDK's tracing channel publishes: `{ type, event }`, plus `result` or `error` at the end. */
export interface ChannelMessage {
  readonly type?: unknown;
  readonly event?: unknown;
  readonly result?: unknown;
  readonly error?: unknown;
}

/** A call the channel opened, until it ends. */
export interface OpenCall {
  readonly callId: string;
  readonly tool: boolean;
  readonly startedMs: number;
  readonly toolName: string | null;
}

/** Operations that stream (the rest answer at once). */
const STREAMING = new Set(["streamText", "streamObject", "streamTranscribe"]);

/**
 * Records the start of one traced operation: a tool execution as a ToolCallStarted, anything else
 * (generateText, a step, a language model call, an embedding…) as a ModelCallStarted whose request
 * names the operation. Nesting comes from the call the code was inside when it started.
 */
export function recordChannelStart(signals: SignalRecorder, callId: string, message: ChannelMessage, parentCallId: string | null): OpenCall {
  const type = stringOf(message.type) ?? "unknown";
  const event = record(message.event) ?? {};
  const startedMs = performance.now();
  if (type === "executeTool") {
    const toolCall = record(event["toolCall"]) ?? {};
    const toolName = stringOf(toolCall["toolName"]) ?? "tool";
    recordTo(signals, new ToolCallStarted({ toolName, callId, source: "ai-sdk", arguments: toolCall["input"], parentCallId }));
    return { callId, tool: true, startedMs, toolName };
  }
  const request: Record<string, unknown> = { operation: type };
  if (type === "step") request["stepNumber"] = event["stepNumber"];
  else Object.assign(request, requestOf(withoutTelemetryFields(event)));
  recordTo(
    signals,
    new ModelCallStarted({
      callId,
      source: "ai-sdk",
      model: stringOf(event["modelId"]),
      provider: stringOf(event["provider"]),
      stream: STREAMING.has(type),
      request,
      parentCallId,
    }),
  );
  return { callId, tool: false, startedMs, toolName: null };
}

/** Records the end of a call the channel opened, from the message's `result` or `error`. */
export function recordChannelEnd(signals: SignalRecorder, call: OpenCall, message: ChannelMessage): void {
  const failed = message.error !== undefined;
  const durationMs = performance.now() - call.startedMs;
  if (call.tool) {
    // The SDK settles a tool execution with `{ output: { type: "tool-result", output }, toolExecutionMs }`
    // or, when `execute` threw, `{ output: { type: "tool-error", error } }`: a failed tool does
    // not fail the operation, the model is told.
    const outcome = record(record(message.result)?.["output"]);
    const error = failed ? message.error : outcome?.["type"] === "tool-error" ? outcome["error"] : undefined;
    recordTo(
      signals,
      new ToolCallFinished({
        toolName: call.toolName ?? "tool",
        callId: call.callId,
        status: error === undefined ? "ok" : "error",
        durationMs,
        error: error === undefined ? null : callError(error),
        result: error === undefined ? (outcome?.["output"] ?? null) : null,
      }),
    );
    return;
  }
  const result = record(message.result);
  const usage = usageOf(result?.["totalUsage"] ?? result?.["usage"]);
  const toolCalls = toolCallsIn(result?.["content"]);
  recordTo(
    signals,
    new ModelCallFinished({
      callId: call.callId,
      status: failed ? "error" : "ok",
      durationMs,
      responseModel: stringOf(record(result?.["response"])?.["modelId"]),
      finishReason: finishReasonOf(result?.["finishReason"]),
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      error: failed ? callError(message.error) : null,
      response: toolCalls.length > 0 ? { toolCalls } : null,
    }),
  );
}

/** What the SDK adds to every telemetry event; the call's own fields are the rest. */
const TELEMETRY_FIELDS = new Set(["callId", "operationId", "provider", "modelId", "recordInputs", "recordOutputs", "functionId", "aiVersion", "runtimeContext", "toolsContext"]);

function withoutTelemetryFields(event: Record<string, unknown>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const key in event) if (!TELEMETRY_FIELDS.has(key)) fields[key] = event[key];
  return fields;
}
