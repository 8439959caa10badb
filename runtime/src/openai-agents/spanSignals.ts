import { RunEnd, RunFailed, RunStart } from "../session/signal.js";
import { RunEvent, ToolCallFinished, ToolCallStarted } from "../signals/callSignals.js";
import type { SignalRecorder } from "../signals/signalRecorder.js";
import { AgentRuns, type OpenSpan } from "./agentRuns.js";
import { record } from "./record.js";
import { dataOf, spanDurationMs, spanError, text, toolArguments, type SpanLike } from "./spanFacts.js";

/** The call source of every call the bridge records. */
export const SOURCE = "openai-agents";

/** The SDK's words for a function call a human rejected (its function span's `error.data.error`). */
const REJECTED_BY_USER = /manually rejected by user/;

/**
 * Turns the tracing spans of `@openai/agents` runs into HookLens signals for one recorder:
 *
 * - an `agent` span is a run of one agent: `RunStart` (metadata: `branchId` = the span id,
 *   `branchName` = the agent, `parentBranchId` = the agent that handed off to it or runs it as a
 *   tool) and `RunEnd`, or `RunFailed` with the span's error;
 * - a `function` span is a tool call: `ToolCallStarted` (arguments parsed, so key redaction
 *   applies) and `ToolCallFinished` (result, error; `denied` when a human rejected it);
 * - `handoff` and `guardrail` spans are `RunEvent`s (`handoff`, `guardrail`) on the agent's branch.
 *
 * Every signal carries `runId` = the trace id where the signal type has one. Nothing here throws.
 */
export class SpanSignals {
  readonly #signals: SignalRecorder;
  readonly #runs = new AgentRuns();

  constructor(signals: SignalRecorder) {
    this.#signals = signals;
  }

  /** Spans not followed because too many were open at once. */
  get skippedSpans(): number {
    return this.#runs.skipped;
  }

  spanStarted(span: SpanLike): void {
    const data = dataOf(span);
    if (data["type"] === "agent") return this.#agentStarted(span, data);
    const open = this.#runs.open(span.spanId, span.parentId, null);
    // The SDK sets a function span's input right after starting it, in the same synchronous
    // step; the processor is called a microtask later (the SDK awaits each processor in turn),
    // so the input is there. A tool that ends first still gets its start (see spanEnded).
    if (open !== null && data["type"] === "function") this.#toolStarted(span, data, open);
  }

  spanEnded(span: SpanLike): void {
    const open = this.#runs.close(span.spanId);
    if (open === undefined) return;
    const data = dataOf(span);
    switch (data["type"]) {
      case "agent":
        return this.#agentEnded(span, open);
      case "function":
        return this.#toolEnded(span, data, open);
      case "handoff":
        this.#runs.handedOff(span.traceId, open.branchId);
        return this.#event(span, open, "handoff", { fromAgent: text(data, "from_agent") ?? open.agentName, toAgent: text(data, "to_agent") });
      case "guardrail":
        return this.#event(span, open, "guardrail", { guardrail: text(data, "name"), triggered: data["triggered"] === true, agent: open.agentName });
      default:
        return;
    }
  }

  /** A human approved the tool call of function span `spanId` (seen by a runner's lifecycle listener). */
  toolApproved(spanId: string, traceId: string, toolName: string, toolCallId: string): void {
    const open = this.#runs.get(spanId);
    const payload = { tool: toolName, toolCallId, approved: true, agent: open?.agentName ?? null };
    record(this.#signals, new RunEvent({ event: "approval", runId: traceId, payload }, { metadata: { branchId: open?.branchId ?? null } }));
  }

  traceEnded(traceId: string): void {
    this.#runs.traceEnded(traceId);
  }

  #agentStarted(span: SpanLike, data: Record<string, unknown>): void {
    const agentName = text(data, "name") ?? "Agent";
    const parentBranchId = this.#runs.parentBranchOf(span.traceId, span.parentId);
    if (this.#runs.open(span.spanId, span.parentId, { branchId: span.spanId, agentName }) === null) return;
    const metadata = { branchId: span.spanId, branchName: agentName, parentBranchId, runId: span.traceId };
    record(this.#signals, new RunStart({ data: { agent: agentName, tools: data["tools"] ?? null, handoffs: data["handoffs"] ?? null }, metadata }));
  }

  #agentEnded(span: SpanLike, open: OpenSpan): void {
    const metadata = { branchId: open.branchId, runId: span.traceId };
    const error = spanError(span, "AgentError");
    if (error) record(this.#signals, new RunFailed({ data: error, metadata }));
    else record(this.#signals, new RunEnd({ durationMs: spanDurationMs(span), metadata }));
  }

  #toolStarted(span: SpanLike, data: Record<string, unknown>, open: OpenSpan): void {
    void Promise.resolve().then(() => this.#recordToolStart(span, data, open));
  }

  #recordToolStart(span: SpanLike, data: Record<string, unknown>, open: OpenSpan): void {
    if (open.started) return;
    open.started = true;
    const call = { toolName: text(data, "name") ?? "tool", callId: span.spanId, source: SOURCE, runId: span.traceId, arguments: toolArguments(data["input"]) } as const;
    record(this.#signals, new ToolCallStarted(call, { metadata: { branchId: open.branchId } }));
  }

  #toolEnded(span: SpanLike, data: Record<string, unknown>, open: OpenSpan): void {
    this.#recordToolStart(span, data, open);
    const toolName = text(data, "name") ?? "tool";
    const error = spanError(span, "ToolError");
    const rejected = error !== null && REJECTED_BY_USER.test(error.message);
    const output = data["output"];
    record(
      this.#signals,
      new ToolCallFinished(
        {
          toolName,
          callId: span.spanId,
          status: rejected ? "denied" : error ? "error" : "ok",
          durationMs: spanDurationMs(span),
          error: rejected ? null : error,
          reason: rejected ? "rejected by a human (approval)" : null,
          result: output === "" ? null : output,
        },
        { metadata: { branchId: open.branchId } },
      ),
    );
    if (rejected) this.#event(span, open, "approval", { tool: toolName, approved: false });
  }

  #event(span: SpanLike, open: OpenSpan, event: string, payload: Record<string, unknown>): void {
    record(this.#signals, new RunEvent({ event, runId: span.traceId, payload }, { metadata: { branchId: open.branchId } }));
  }
}
