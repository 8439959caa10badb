import { performance } from "node:perf_hooks";
import { ModelCallFinished, ModelCallStarted, ModelStreamChunks, callError } from "../signals/callSignals.js";
import { recordTo, type SignalRecorder } from "../signals/signalRecorder.js";
import { newId } from "../shared/ids.js";
import { STREAM_CHUNK_BATCH } from "../service/modelCallRecord.js";
import { finishReasonOf, record, requestOf, stringOf, toolCallOf, toolCallsIn, usageOf, type RecordedToolCall, type UsageCounts } from "./readFields.js";

/** The language model a middleware call names: `{ provider, modelId }`. */
export interface ModelRef {
  readonly provider?: unknown;
  readonly modelId?: unknown;
}

const NO_USAGE: UsageCounts = { inputTokens: null, outputTokens: null };

/**
 * One model call the middleware saw (a `doGenerate` or a `doStream`): ModelCallStarted when it
 * begins, ModelStreamChunks per batch of stream parts, ModelCallFinished with the finish reason,
 * usage, tool calls, latency and any error.
 */
export class MiddlewareModelCall {
  readonly #signals: SignalRecorder;
  readonly #callId = newId();
  readonly #startedMs = performance.now();
  #done = false;
  #parts = 0;
  #batch = 0;
  #batchFirstAt = 0;
  #finishReason: string | null = null;
  #usage: UsageCounts = NO_USAGE;
  #responseModel: string | null = null;
  #toolCalls: RecordedToolCall[] | null = null;
  #streamError: unknown = undefined;

  constructor(signals: SignalRecorder, model: ModelRef, params: unknown, stream: boolean, parentCallId: string | null) {
    this.#signals = signals;
    recordTo(
      signals,
      new ModelCallStarted({
        callId: this.#callId,
        source: "ai-sdk",
        model: stringOf(model.modelId),
        provider: stringOf(model.provider),
        stream,
        request: requestOf(params),
        parentCallId,
      }),
    );
  }

  /** A `doGenerate` result arrived. */
  generated(result: unknown): void {
    const fields = record(result);
    this.#finishReason = finishReasonOf(fields?.["finishReason"]);
    this.#usage = usageOf(fields?.["usage"]);
    this.#responseModel = stringOf(record(fields?.["response"])?.["modelId"]);
    const calls = toolCallsIn(fields?.["content"]);
    this.#toolCalls = calls.length > 0 ? calls : null;
    this.finish(null);
  }

  /** One stream part passed through. Counted; only the parts that end or fail the call are read. */
  part(part: unknown): void {
    // Two clock readings per batch (its first part and its last), none for the parts between.
    if (this.#batch === 0) this.#batchFirstAt = Date.now() / 1000;
    this.#parts++;
    this.#batch++;
    const fields = part as Record<string, unknown>;
    switch (fields?.["type"]) {
      case "tool-call":
        (this.#toolCalls ??= []).push(toolCallOf(fields));
        break;
      case "response-metadata":
        this.#responseModel = stringOf(fields["modelId"]) ?? this.#responseModel;
        break;
      case "finish":
        this.#finishReason = finishReasonOf(fields["finishReason"]);
        this.#usage = usageOf(fields["usage"]);
        break;
      case "error":
        this.#streamError = fields["error"];
        break;
    }
    if (this.#batch >= STREAM_CHUNK_BATCH) this.#flushParts();
  }

  /** The stream ended: an error part makes the call fail, as the SDK reports it. */
  streamEnded(): void {
    this.finish(this.#streamError === undefined ? null : this.#streamError);
  }

  /** The call ended; `error` is what it failed with, or null. `cancelled`: the reader gave the stream up. */
  finish(error: unknown, cancelled = false): void {
    if (this.#done) return;
    this.#done = true;
    this.#flushParts();
    const failed = error !== null && error !== undefined;
    recordTo(
      this.#signals,
      new ModelCallFinished({
        callId: this.#callId,
        status: cancelled ? "cancelled" : failed ? "error" : "ok",
        durationMs: performance.now() - this.#startedMs,
        responseModel: this.#responseModel,
        finishReason: this.#finishReason,
        inputTokens: this.#usage.inputTokens,
        outputTokens: this.#usage.outputTokens,
        error: failed ? callError(error) : null,
        chunks: this.#parts > 0 ? this.#parts : null,
        response: this.#toolCalls ? { toolCalls: this.#toolCalls } : null,
      }),
    );
  }

  #flushParts(): void {
    if (this.#batch === 0) return;
    recordTo(this.#signals, new ModelStreamChunks({ callId: this.#callId, chunks: this.#batch, firstAt: this.#batchFirstAt, lastAt: Date.now() / 1000 }));
    this.#batch = 0;
  }
}
