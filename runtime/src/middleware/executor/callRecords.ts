import { performance } from "node:perf_hooks";
import { ModelCallFinished, ModelCallStarted, ToolCallFinished, ToolCallStarted, callError } from "../../signals/callSignals.js";
import { recordTo, type SignalRecorder } from "../../signals/signalRecorder.js";
import type { ToolResult } from "../calls.js";
import { nameModelCall } from "../denials.js";
import { PolicyOutcome } from "../errors.js";
import type { LLMInvocation, ToolInvocation } from "../invocations.js";
import type { LLMResponse } from "../llm.js";

/** Records one Executor tool call as a ToolCallStarted now and a ToolCallFinished when it ends. */
export class ToolCallRecord {
  readonly #signals: SignalRecorder;
  readonly #inv: ToolInvocation;
  readonly #startedMs = performance.now();
  /** Set when a before-hook's ShortCircuit supplied the result. */
  skipped = false;

  constructor(signals: SignalRecorder, inv: ToolInvocation) {
    this.#signals = signals;
    this.#inv = inv;
    const { spec, call, ctx } = inv;
    // A confirm tool's arguments are never recorded (the same promise LoggingHook keeps).
    recordTo(
      signals,
      new ToolCallStarted({ toolName: spec.name, callId: call.id, source: "executor", runId: ctx.runId, threadId: ctx.threadId, ...(spec.confirm ? {} : { arguments: call.arguments }) }),
    );
  }

  finished(result: ToolResult): void {
    const status = this.skipped ? "skipped" : result.ok ? "ok" : "error";
    const error = result.ok ? null : { name: result.errorKind ?? "ToolError", message: `${result.tool} returned an error result` };
    this.#finish({ status, error, ...(this.#inv.spec.confirm ? {} : { result: result.value }) });
  }

  failed(error: unknown): void {
    if (error instanceof PolicyOutcome) this.#finish({ status: "denied", error: callError(error), reason: error.message });
    else this.#finish({ status: "error", error: callError(error) });
  }

  #finish(outcome: Pick<ConstructorParameters<typeof ToolCallFinished>[0], "status" | "error" | "reason" | "result">): void {
    const { spec, call } = this.#inv;
    recordTo(this.#signals, new ToolCallFinished({ toolName: spec.name, callId: call.id, durationMs: performance.now() - this.#startedMs, ...outcome }));
  }
}

/** Records one Executor model call as a ModelCallStarted now and a ModelCallFinished when it ends. */
export class ModelCallRecord {
  readonly #signals: SignalRecorder;
  readonly #callId: string;
  readonly #startedMs = performance.now();

  constructor(signals: SignalRecorder, inv: LLMInvocation, callId: string) {
    this.#signals = signals;
    this.#callId = callId;
    nameModelCall(inv, callId);
    recordTo(
      signals,
      new ModelCallStarted({ callId, source: "executor", model: inv.model, provider: inv.provider, stream: false, runId: inv.ctx.runId, threadId: inv.ctx.threadId, request: inv.request }),
    );
  }

  finished(response: LLMResponse): void {
    recordTo(
      this.#signals,
      new ModelCallFinished({
        callId: this.#callId,
        status: "ok",
        durationMs: performance.now() - this.#startedMs,
        finishReason: response?.finishReason ?? null,
        inputTokens: response?.usage?.inputTokens ?? null,
        outputTokens: response?.usage?.outputTokens ?? null,
        response: response?.content ?? null,
      }),
    );
  }

  failed(error: unknown): void {
    recordTo(this.#signals, new ModelCallFinished({ callId: this.#callId, status: "error", durationMs: performance.now() - this.#startedMs, error: callError(error) }));
  }
}
