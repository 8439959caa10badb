import { performance } from "node:perf_hooks";
import { ModelCallFinished, ModelCallStarted, ModelStreamChunks, callError, type ServiceHookRun, type StreamHandlerRun } from "../signals/callSignals.js";
import { epochSecondsAt } from "../shared/clock.js";
import { recordTo, type SignalRecorder } from "../signals/signalRecorder.js";
import type { APICalling } from "./apiCalling.js";
import { EventStatus } from "./eventStatus.js";
import type { HookEvent } from "./hookEvent.js";
import { phaseHandlerSite } from "./hookRegistry.js";
import { preCreateHookOf } from "./preCreateHooks.js";
import { newId } from "../shared/ids.js";

/** Chunks summed into one ModelStreamChunks signal: a stream costs one signal per batch, not per chunk. */
export const STREAM_CHUNK_BATCH = 32;

/**
 * Records one IModel call: a ModelCallStarted when it begins, ModelStreamChunks per batch of
 * streamed chunks (with the stream handler runs of those chunks), and a ModelCallFinished with the outcome, token usage and the service hook
 * phases that ran, read from the finished APICalling.
 */
export class IModelCallRecord {
  readonly #signals: SignalRecorder;
  readonly #callId = newId();
  readonly #startedMs = performance.now();
  #chunks = 0;
  #batch = 0;
  #batchFirstAt = 0;
  #batchLastAt = 0;
  #handlerRuns: StreamHandlerRun[] = [];
  #done = false;
  #streamFinishReason: string | null = null;
  #streamModel: string | null = null;

  constructor(signals: SignalRecorder, request: { model: unknown; provider: string; stream: boolean; payload: unknown; parentCallId: string | null }) {
    this.#signals = signals;
    recordTo(
      signals,
      new ModelCallStarted({
        callId: this.#callId,
        source: "imodel",
        model: typeof request.model === "string" ? request.model : null,
        provider: request.provider,
        stream: request.stream,
        request: request.payload,
        parentCallId: request.parentCallId,
      }),
    );
  }

  chunk(value: unknown): void {
    // A full batch leaves when the next chunk arrives, so it carries its last chunk's handler run.
    if (this.#batch >= STREAM_CHUNK_BATCH) this.#flushChunks();
    this.#streamFinishReason = finishReasonOf(value) ?? this.#streamFinishReason;
    this.#streamModel ??= stringField(value, "model");
    const at = Date.now() / 1000;
    if (this.#batch === 0) this.#batchFirstAt = at;
    this.#batchLastAt = at;
    this.#chunks++;
    this.#batch++;
  }

  /**
   * A stream handler is about to run on a chunk; call the returned function with the registry's
   * `[result, shouldExit, status]` parts when it returned (status null: it succeeded).
   */
  handlerStarted(chunkType: string): (status: string | null, result: unknown) => void {
    const startedMs = performance.now();
    return (status, result) => {
      const failed = status !== null;
      const cancelled = status === EventStatus.CANCELLED;
      // A cancellation comes back as [Undefined, error]; a failure as the error itself.
      const error = cancelled && Array.isArray(result) ? result[1] : result;
      this.#handlerRuns.push({
        chunkType,
        startedAt: epochSecondsAt(startedMs),
        durationMs: performance.now() - startedMs,
        status: cancelled ? "cancelled" : failed ? "error" : "ok",
        error: failed ? callError(error) : null,
      });
    };
  }

  /** The call ended; `apiCall` is null when it failed before an APICalling existed. */
  finished(apiCall: APICalling | null, thrown: unknown = null, cancelled = false): void {
    if (this.#done) return;
    this.#done = true;
    this.#flushChunks();
    const status = cancelled ? "cancelled" : thrown !== null || (apiCall !== null && apiCall.status !== EventStatus.COMPLETED) ? "error" : "ok";
    const error = thrown !== null ? callError(thrown) : apiCall?.execution.error ? callError(apiCall.execution.error) : null;
    const usage = apiCall?.usage ?? null;
    const response = apiCall?.execution.response;
    recordTo(
      this.#signals,
      new ModelCallFinished({
        callId: this.#callId,
        status,
        durationMs: performance.now() - this.#startedMs,
        requestModel: apiCall ? stringField(apiCall.payload, "model") : null,
        responseModel: stringField(response, "model") ?? this.#streamModel,
        finishReason: finishReasonOf(response) ?? this.#streamFinishReason,
        inputTokens: usage?.promptTokens ?? null,
        outputTokens: usage?.completionTokens ?? null,
        error: status === "ok" ? null : (error ?? (apiCall ? { name: "CallFailed", message: `the call ended ${apiCall.status}` } : null)),
        chunks: this.#chunks > 0 ? this.#chunks : null,
        hookRuns: apiCall ? hookRunsOf(apiCall) : [],
        response,
      }),
    );
  }

  #flushChunks(): void {
    if (this.#batch === 0 && this.#handlerRuns.length === 0) return;
    const handlerRuns = this.#handlerRuns;
    this.#handlerRuns = [];
    recordTo(this.#signals, new ModelStreamChunks({ callId: this.#callId, chunks: this.#batch, firstAt: this.#batchFirstAt, lastAt: this.#batchLastAt, handlerRuns }));
    this.#batch = 0;
  }
}

function hookRunsOf(apiCall: APICalling): ServiceHookRun[] {
  const runs: ServiceHookRun[] = [];
  for (const hook of [preCreateHookOf(apiCall), apiCall.preInvokeHookEvent, apiCall.postInvokeHookEvent]) if (hook && hook.status !== EventStatus.PENDING) runs.push(hookRun(hook));
  return runs;
}

function hookRun(hook: HookEvent): ServiceHookRun {
  const duration = hook.execution.duration;
  const error = hook.execution.error;
  const location = phaseHandlerSite(hook.registry, hook.hookType);
  return {
    hookType: hook.hookType,
    status: hook.status,
    startedAt: hook.createdAt,
    durationMs: typeof duration === "number" ? duration * 1000 : null,
    error: error === null || error === undefined ? null : error instanceof Error ? error.message : String(error),
    ...(location === null ? {} : { location }),
  };
}

/** OpenAI-style `choices[0].finish_reason`, or a top-level `finish_reason`/`stop_reason`. */
function finishReasonOf(response: unknown): string | null {
  if (response === null || typeof response !== "object") return null;
  const choices = (response as { choices?: unknown }).choices;
  if (Array.isArray(choices) && choices.length > 0) {
    const reason = stringField(choices[0], "finish_reason");
    if (reason !== null) return reason;
  }
  return stringField(response, "finish_reason") ?? stringField(response, "stop_reason");
}

function stringField(value: unknown, key: string): string | null {
  if (value === null || typeof value !== "object") return null;
  const field = (value as Record<string, unknown>)[key];
  return typeof field === "string" ? field : null;
}
