import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type HrTime, type Span, type Tracer } from "@opentelemetry/api";
import type { EncodedSignal } from "../session/pipeline/encodedSignal.js";
import type { JsonObject } from "../session/serialize.js";
import type { RedactionRules } from "../shared/redaction/rules.js";
import { redactionRules } from "../shared/redaction/settings.js";
import { GOVERNANCE_DENIAL } from "../tool/act.js";
import { AgentNames, type Agent } from "./agentNames.js";
import { ERROR_TYPE, GEN_AI, GEN_AI_OPERATION, HOOKLENS, SESSION_ID } from "./attributes.js";
import { exportedContent } from "./content.js";
import { HrTimes } from "./hrTimes.js";
import { countOf, errorOf, exportedPrimitive, exportedText, fieldsOf, idOf, objectOf, textOf, type Fields } from "./signalFields.js";
import { spanName } from "./spanNames.js";
import { SDK_CALL_KINDS, SDK_EVENT_KINDS, sdkCallSpan, sdkQueryEvent } from "./sdkCallSpans.js";

/** How the signals of one session become spans. */
export interface TraceOptions {
  /** Export argument, result and message contents (redacted). Default false. */
  readonly captureContent: boolean;
  /** One span event per batch of stream chunks. Default false. */
  readonly streamChunkEvents: boolean;
  /** One child span of the chat span per stream handler run. Default true. */
  readonly streamHandlerSpans: boolean;
}

/** An open tool or model call span. */
interface OpenCall {
  readonly span: Span;
  readonly kind: "tool" | "model";
  readonly toolName: string | null;
  readonly source: string;
  readonly branchId: string | null;
  readonly runId: string | null;
  /** The model a chat span names (null for tools, or until the request names one). */
  readonly model: string | null;
  /** POSIX seconds the call started. */
  readonly startedAt: number;
  exceptionRecorded: boolean;
  /** A model call recorded inside this one (an Executor call made through an IModel): that span carries the usage. */
  hasModelCallInside: boolean;
  /** The reason a denial signal gave (it names the gate's or hook's own reason), kept over the call's generic one. */
  deniedFor: string | null;
  /** Stream handler runs whose spans are made when the call ends (to keep them inside it). */
  handlerRuns: Fields[] | null;
}

/** An open `invoke_agent` span: a branch's observed run. */
interface OpenRun {
  readonly span: Span;
  readonly context: Context;
  /** Its RunStart's metadata (which may name the branch). */
  readonly metadata: unknown;
  /** The agent it is named after; null while nothing has named one. */
  agent: Agent | null;
}

/** Errors that are a policy stopping the call rather than a fault: they also get a `hooklens.stop` event. */
const STOPS = new Set(["BudgetExceeded", "GuardrailBlocked", "RunLimitExceeded", "ApprovalDenied"]);
const DENIALS = new Set(["ToolCallBlocked", "HookShortCircuit", "GuardrailBlock"]);
/** `session.end` statuses that mark the session's root span as failed. */
const FAILED_SESSION = new Set(["failed", "error", "errored", "cancelled", "timeout"]);
/** The name (and service hook type) of a stream handler run's span. */
const STREAM_HANDLER = "stream_handler";

/**
 * The spans of one session, built from its flushed signals in order: a root `session` span, an
 * `invoke_agent` span per observed run of a branch, and a `chat` / `execute_tool` span per call
 * under the run (or the root). Everything else a reader needs (hook points, service hooks,
 * denials, run events) becomes span events on the span it belongs to. Times are the signals' own.
 */
export class SessionTrace {
  readonly #tracer: Tracer;
  readonly #sessionId: string;
  readonly #options: TraceOptions;
  #root: Span | null = null;
  #rootContext: Context = ROOT_CONTEXT;
  /** Open calls by call id. */
  readonly #calls = new Map<string, OpenCall>();
  /** Open `invoke_agent` spans by branch id ("" for none). */
  readonly #runs = new Map<string, OpenRun>();
  /** The agents that the session's signals name, for the runs' spans. */
  readonly #agents = new AgentNames();
  /** The latest open call of each middleware run, for the run's events. */
  readonly #runCalls = new Map<string, string>();
  #lastAt = 0;
  #ended = false;
  /** Whether the root span records (false: the sampler dropped this trace). */
  #sampled = true;
  /** Span and event times, one array per distinct time. */
  readonly #times = new HrTimes();

  constructor(tracer: Tracer, sessionId: string, options: TraceOptions) {
    this.#tracer = tracer;
    this.#sessionId = sessionId;
    this.#options = options;
  }

  /** True once `session.end` ended the trace: the sink starts a new one for later signals. */
  get ended(): boolean {
    return this.#ended;
  }

  /** Open spans (root included): what {@link end} would close. */
  get openSpans(): number {
    return this.#calls.size + this.#runs.size + (this.#root ? 1 : 0);
  }

  apply(signal: EncodedSignal): void {
    const at = signal.createdAt;
    if (at > this.#lastAt) this.#lastAt = at;
    // A trace its sampler dropped: nothing of it is recorded, so no span work is done for it (the
    // standard samplers decide a whole trace alike); only `session.end` is read, to start afresh.
    if (this.#root !== null && !this.#sampled) return this.#unsampled(signal);
    // The signal's own fields, not its encoded payload: the export serialises nothing and redacts
    // only the strings it exports.
    const f = fieldsOf(signal);
    switch (signal.kind) {
      case "ToolCallStarted":
        return this.#startTool(signal, f);
      case "ToolCallFinished":
        return this.#finishTool(signal, f);
      case "ModelCallStarted":
        return this.#startModel(signal, f);
      case "ModelCallFinished":
        return this.#finishModel(signal, f);
      case "ModelStreamChunks":
        return this.#streamChunks(f);
      case "HookSignal":
        return this.#hookSignal(signal, f);
      case "ToolCallBlocked":
      case "HookShortCircuit":
      case "GuardrailBlock":
        return this.#denial(signal, f);
      case "GateDenied":
        return this.#gateDenied(signal, f);
      case "RunStart":
        return this.#runStart(signal, f);
      case "RunEnd":
        return this.#runEnd(signal, f, null);
      case "RunFailed":
        return this.#runEnd(signal, f, errorOf(f["data"]) ?? { name: "Error", message: "run failed" });
      case "RunEvent":
        return this.#runEvent(signal, f);
      case "MessageAdded": {
        // The signal carries the message (`data`); a stored one only its reference.
        const ref = objectOf(f["messageRef"]) ?? objectOf(f["data"]);
        this.#parentSpan(signal.branchId).addEvent("message", definedAttributes({ "hooklens.message.role": textOf(ref, "role"), "hooklens.message.id": textOf(ref, "id") }), this.#times.of(at));
        return;
      }
      default:
        if (SDK_CALL_KINDS.has(signal.kind)) return sdkCallSpan(this.#tracer, this.#parentContext(signal.branchId, at), signal, f);
        if (SDK_EVENT_KINDS.has(signal.kind)) return sdkQueryEvent(this.#parentSpan(signal.branchId), signal, f);
        return;
    }
  }

  /** A signal of a trace the sampler dropped: only `session.end` matters (it ends the trace). */
  #unsampled(signal: EncodedSignal): void {
    if (signal.kind !== "HookSignal") return;
    if (fieldsOf(signal)["point"] !== "session.end") return;
    this.end();
    this.#ended = true;
  }

  /**
   * Argument, result or message contents, only with captureContent: read from the encoded
   * payload, so they pass the same byte cap and redaction as every sink's (a payload the cap
   * replaced has no contents to export). Encoding happens here, for this signal only.
   */
  #content(signal: EncodedSignal, key: string): JsonObject[string] | undefined {
    if (!this.#options.captureContent) return undefined;
    const payload = signal.payload;
    return payload["truncated"] === true ? undefined : payload[key];
  }

  /** Ends every open span at the last signal's time (or now), marking calls that never finished. */
  end(): void {
    const at = this.#lastAt > 0 ? this.#times.of(this.#lastAt) : undefined;
    for (const call of this.#calls.values()) {
      call.span.setAttribute(HOOKLENS.unfinished, true);
      this.#endHandlerRuns(call, Math.max(this.#lastAt, call.startedAt));
      call.span.end(at);
    }
    this.#calls.clear();
    this.#runCalls.clear();
    for (const run of this.#runs.values()) {
      run.span.setAttribute(HOOKLENS.unfinished, true);
      run.span.end(at);
    }
    this.#runs.clear();
    this.#root?.end(at);
    this.#root = null;
    this.#rootContext = ROOT_CONTEXT;
  }

  #rootSpan(at: number): Span {
    if (this.#root === null) {
      this.#root = this.#tracer.startSpan(
        "session",
        { kind: SpanKind.INTERNAL, startTime: this.#times.of(at), attributes: { [SESSION_ID]: this.#sessionId, [GEN_AI.conversationId]: this.#sessionId, [HOOKLENS.sessionId]: this.#sessionId } },
        ROOT_CONTEXT,
      );
      this.#rootContext = trace.setSpan(ROOT_CONTEXT, this.#root);
      this.#sampled = this.#root.isRecording();
    }
    return this.#root;
  }

  /** The span events of a branch go on: its open run, else the session's root. */
  #parentSpan(branchId: string | null): Span {
    return this.#runs.get(branchId ?? "")?.span ?? this.#rootSpan(this.#lastAt);
  }

  #parentContext(branchId: string | null, at: number): Context {
    const run = this.#runs.get(branchId ?? "");
    if (run) return run.context;
    this.#rootSpan(at);
    return this.#rootContext;
  }

  #startTool(signal: EncodedSignal, f: Fields): void {
    const callId = idOf(f["callId"]);
    if (callId === null) return;
    const toolName = idOf(f["toolName"]);
    const shownName = textOf(f, "toolName") ?? "unknown";
    const source = idOf(f["source"]);
    // Built in place (no spread, no filtering copy): this runs once per tool call.
    const attributes: Attributes = { [GEN_AI.operationName]: GEN_AI_OPERATION.executeTool, [GEN_AI.toolName]: shownName, [GEN_AI.toolCallId]: exportedText("callId", callId) };
    if (source !== null) attributes[HOOKLENS.source] = exportedText("source", source);
    addRunAttributes(attributes, f);
    const args = this.#content(signal, "arguments");
    if (args !== undefined) attributes[GEN_AI.toolCallArguments] = exportedContent(args);
    const outer = this.#calls.get(idOf(f["parentCallId"]) ?? "");
    const span = this.#tracer.startSpan(
      spanName(GEN_AI_OPERATION.executeTool, shownName),
      { kind: SpanKind.INTERNAL, startTime: this.#times.of(signal.createdAt), attributes },
      outer ? trace.setSpan(ROOT_CONTEXT, outer.span) : this.#parentContext(signal.branchId, signal.createdAt),
    );
    this.#open(callId, { span, kind: "tool", toolName: toolName ?? "unknown", source: source ?? "", branchId: signal.branchId, runId: idOf(f["runId"]), model: null, startedAt: signal.createdAt, exceptionRecorded: false, hasModelCallInside: false, deniedFor: null, handlerRuns: null });
  }

  #finishTool(signal: EncodedSignal, f: Fields): void {
    const callId = idOf(f["callId"]);
    const call = callId === null ? undefined : this.#calls.get(callId);
    if (call === undefined || callId === null) return;
    const { span } = call;
    const rawStatus = idOf(f["status"]) ?? "ok";
    const status = exportedText("status", rawStatus);
    const durationMs = countOf(f["durationMs"]);
    span.setAttributes(durationMs !== undefined ? { [HOOKLENS.toolStatus]: status, [HOOKLENS.durationMs]: durationMs } : { [HOOKLENS.toolStatus]: status });
    const error = errorOf(f["error"]);
    const at = this.#times.of(signal.createdAt);
    if (rawStatus === "denied") {
      const reason = call.deniedFor ?? textOf(f, "reason") ?? error?.message ?? "denied";
      span.setAttribute(HOOKLENS.denialReason, reason);
      if (error) this.#recordError(call, error, at, signal.createdAt);
      span.setStatus({ code: SpanStatusCode.ERROR, message: reason });
    } else if (rawStatus === "error") {
      this.#recordError(call, error ?? { name: "Error", message: "tool call failed" }, at, signal.createdAt);
    }
    const result = this.#content(signal, "result");
    if (result !== undefined) span.setAttribute(GEN_AI.toolCallResult, exportedContent(result));
    this.#close(callId, call, at, signal.createdAt);
  }

  #startModel(signal: EncodedSignal, f: Fields): void {
    const callId = idOf(f["callId"]);
    if (callId === null) return;
    const model = textOf(f, "model");
    const attributes: Attributes = definedAttributes({
      [GEN_AI.operationName]: GEN_AI_OPERATION.chat,
      [GEN_AI.requestModel]: model,
      [GEN_AI.providerName]: textOf(f, "provider"),
      [HOOKLENS.source]: textOf(f, "source"),
      "hooklens.stream": f["stream"] === true ? true : undefined,
    });
    addRunAttributes(attributes, f);
    const request = this.#content(signal, "request");
    if (request !== undefined) attributes[GEN_AI.inputMessages] = exportedContent(objectOf(request)?.["messages"] ?? request);
    const outer = this.#calls.get(idOf(f["parentCallId"]) ?? "");
    if (outer?.kind === "model") outer.hasModelCallInside = true;
    const span = this.#tracer.startSpan(
      model ? spanName(GEN_AI_OPERATION.chat, model) : GEN_AI_OPERATION.chat,
      { kind: SpanKind.CLIENT, startTime: this.#times.of(signal.createdAt), attributes },
      outer ? trace.setSpan(ROOT_CONTEXT, outer.span) : this.#parentContext(signal.branchId, signal.createdAt),
    );
    this.#open(callId, { span, kind: "model", toolName: null, source: idOf(f["source"]) ?? "", branchId: signal.branchId, runId: idOf(f["runId"]), model, startedAt: signal.createdAt, exceptionRecorded: false, hasModelCallInside: false, deniedFor: null, handlerRuns: null });
  }

  #finishModel(signal: EncodedSignal, f: Fields): void {
    const callId = idOf(f["callId"]);
    const call = callId === null ? undefined : this.#calls.get(callId);
    if (call === undefined || callId === null) return;
    const { span } = call;
    const at = this.#times.of(signal.createdAt);
    const requestModel = textOf(f, "requestModel");
    if (requestModel !== null && call.model === null) {
      span.setAttribute(GEN_AI.requestModel, requestModel);
      span.updateName(spanName(GEN_AI_OPERATION.chat, requestModel));
    }
    // Tokens are counted once: on the innermost call (a backend sums them over chat spans).
    const counted = !call.hasModelCallInside;
    span.setAttributes(
      definedAttributes({
        [GEN_AI.responseModel]: textOf(f, "responseModel"),
        [GEN_AI.inputTokens]: counted ? countOf(f["inputTokens"]) : undefined,
        [GEN_AI.outputTokens]: counted ? countOf(f["outputTokens"]) : undefined,
        [HOOKLENS.streamChunks]: countOf(f["chunks"]),
        [HOOKLENS.durationMs]: countOf(f["durationMs"]),
      }),
    );
    const finishReason = textOf(f, "finishReason");
    if (finishReason !== null) span.setAttribute(GEN_AI.finishReasons, [finishReason]);
    const hookRuns = Array.isArray(f["hookRuns"]) ? (f["hookRuns"] as readonly unknown[]) : [];
    for (const run of hookRuns) {
      const hook = objectOf(run);
      if (!hook) continue;
      const hookType = textOf(hook, "hookType");
      span.addEvent(
        `service.${hookType ?? "hook"}`,
        definedAttributes({
          [HOOKLENS.hookType]: hookType,
          [HOOKLENS.hookStatus]: textOf(hook, "status"),
          [HOOKLENS.hookError]: textOf(hook, "error"),
          [HOOKLENS.durationMs]: countOf(hook["durationMs"]),
        }),
        this.#times.of(countOf(hook["startedAt"]) ?? signal.createdAt),
      );
    }
    const status = idOf(f["status"]) ?? "ok";
    if (status !== "ok") {
      const error = errorOf(f["error"]) ?? { name: status === "cancelled" ? "Cancelled" : "Error", message: `model call ${exportedText("status", status)}` };
      this.#recordError(call, error, at, signal.createdAt);
    }
    const response = this.#content(signal, "response");
    if (response !== undefined) span.setAttribute(GEN_AI.outputMessages, exportedContent(response));
    this.#close(callId, call, at, signal.createdAt);
  }

  #streamChunks(f: Fields): void {
    const callId = idOf(f["callId"]);
    const call = callId === null ? undefined : this.#calls.get(callId);
    if (!call) return;
    const chunks = countOf(f["chunks"]);
    if (this.#options.streamChunkEvents && chunks !== undefined && chunks > 0) {
      call.span.addEvent(
        "gen_ai.stream.chunks",
        definedAttributes({ [HOOKLENS.streamChunks]: chunks, [HOOKLENS.streamChunksFirstAt]: countOf(f["firstAt"]) }),
        this.#times.of(countOf(f["lastAt"]) ?? this.#lastAt),
      );
    }
    if (this.#options.streamHandlerSpans && Array.isArray(f["handlerRuns"])) {
      for (const run of f["handlerRuns"] as readonly unknown[]) {
        const handler = objectOf(run);
        if (handler) (call.handlerRuns ??= []).push(handler);
      }
    }
  }

  /**
   * A stream handler's run on one chunk, as a child span of its chat span, made when the call
   * ended: its times are read from a finer clock than the call's, so they are kept within the
   * call's (a run never appears to outlast the call it ran in).
   */
  #streamHandlerSpan(run: Fields, call: OpenCall, parent: Context, callEndedAt: number): void {
    const chunkType = textOf(run, "chunkType") ?? "unknown";
    const startedAt = Math.min(Math.max(countOf(run["startedAt"]) ?? call.startedAt, call.startedAt), callEndedAt);
    const durationMs = countOf(run["durationMs"]) ?? 0;
    const endedAt = Math.min(startedAt + durationMs / 1000, callEndedAt);
    const span = this.#tracer.startSpan(
      spanName(STREAM_HANDLER, chunkType),
      { kind: SpanKind.INTERNAL, startTime: this.#times.of(startedAt), attributes: { [HOOKLENS.hookType]: STREAM_HANDLER, [HOOKLENS.streamHandlerChunkType]: chunkType } },
      parent,
    );
    const rawStatus = idOf(run["status"]) ?? "ok";
    const status = exportedText("status", rawStatus);
    span.setAttribute(HOOKLENS.hookStatus, status);
    const end = this.#times.of(endedAt);
    if (rawStatus !== "ok") {
      const error = errorOf(run["error"]) ?? { name: rawStatus === "cancelled" ? "Cancelled" : "Error", message: `stream handler ${status}` };
      span.recordException(error, end);
      span.setAttribute(ERROR_TYPE, error.name);
      span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
    }
    span.end(end);
  }

  #hookSignal(signal: EncodedSignal, f: Fields): void {
    const rawPoint = idOf(f["point"]);
    const payload = objectOf(f["payload"]);
    const callId = idOf(payload?.["callId"]);
    const call = callId === null ? undefined : this.#calls.get(callId);
    const at = this.#times.of(signal.createdAt);
    if (rawPoint === "session.start" || rawPoint === "session.end") return this.#sessionPoint(rawPoint, payload, at);
    if (rawPoint === "branch.create" && this.#agents.declare(rawPoint, payload)) this.#nameRuns();
    const point = pointEvent(rawPoint ?? "hook");
    if (call === undefined) {
      const attributes = definedAttributes({ [HOOKLENS.hookPoint]: point.name, [GEN_AI.toolName]: textOf(payload, "toolName"), [GEN_AI.toolCallId]: textOf(payload, "callId") });
      this.#parentSpan(signal.branchId).addEvent(point.name, attributes, at);
      return;
    }
    // On its call's span the tool and call id are the span's own attributes: the point is enough.
    call.span.addEvent(point.name, point.attributes, at);
    if (rawPoint === "tool.error") this.#recordError(call, errorOf(payload?.["error"]) ?? { name: "Error", message: "tool call failed" }, at, signal.createdAt);
  }

  /**
   * `session.start` names the root span's agent and model; `session.end` gives it the session's
   * outcome and usage and ends the trace, so a backend receives it without waiting for the program
   * to end (a later signal of the same session starts a new trace).
   */
  #sessionPoint(point: "session.start" | "session.end", payload: Fields | null, at: HrTime): void {
    const root = this.#rootSpan(this.#lastAt);
    root.addEvent(point, pointEvent(point).attributes, at);
    if (point === "session.start") {
      if (this.#agents.declare(point, payload)) this.#nameRuns();
      root.setAttributes(definedAttributes({ [GEN_AI.agentName]: textOf(payload, "agentName"), [GEN_AI.requestModel]: textOf(payload, "model"), [GEN_AI.providerName]: textOf(payload, "provider") }));
      return;
    }
    const rawStatus = idOf(payload?.["status"]) ?? "completed";
    const status = exportedText("status", rawStatus);
    root.setAttributes(
      definedAttributes({
        [HOOKLENS.sessionStatus]: status,
        [GEN_AI.inputTokens]: countOf(payload?.["inputTokens"]),
        [GEN_AI.outputTokens]: countOf(payload?.["outputTokens"]),
        [HOOKLENS.costUsd]: countOf(payload?.["totalCostUsd"]),
        "hooklens.session.turns": countOf(payload?.["numTurns"]),
      }),
    );
    const error = errorOf(payload?.["error"]);
    if (error !== null || FAILED_SESSION.has(rawStatus)) {
      const failure = error ?? { name: "Error", message: `session ${status}` };
      root.recordException(failure, at);
      root.setAttribute(ERROR_TYPE, failure.name);
      root.setStatus({ code: SpanStatusCode.ERROR, message: failure.message });
    }
    this.end();
    this.#ended = true;
  }

  #denial(signal: EncodedSignal, f: Fields): void {
    const reason = textOf(f, "reason") ?? "denied";
    const hook = textOf(f, "hook");
    const callId = idOf(f["callId"]);
    const attributes = definedAttributes({ [HOOKLENS.denialKind]: signal.kind, [HOOKLENS.denialReason]: reason, [HOOKLENS.denialHook]: hook, [GEN_AI.toolName]: textOf(f, "toolName"), [HOOKLENS.flowName]: textOf(f, "flowName"), [HOOKLENS.flowNode]: textOf(f, "nodeName") });
    const call = callId === null ? undefined : this.#calls.get(callId);
    this.#markDenied(call, signal, attributes, reason, hook);
  }

  #gateDenied(signal: EncodedSignal, f: Fields): void {
    const action = objectOf(f["data"]);
    const toolName = idOf(action?.["function"]);
    const callId = idOf(action?.["callId"]);
    // Why and which gate ride in the metadata (GateDenied keeps its as-built fields); older recordings name neither.
    const metadata = objectOf(f["metadata"]);
    const why = textOf(metadata, "reason");
    const reason = why === null ? GOVERNANCE_DENIAL : `${GOVERNANCE_DENIAL}: ${why}`;
    const hook = textOf(metadata, "hook");
    const attributes = definedAttributes({ [HOOKLENS.denialKind]: signal.kind, [HOOKLENS.denialReason]: reason, [HOOKLENS.denialHook]: hook, [GEN_AI.toolName]: textOf(action, "function"), [GEN_AI.toolCallId]: textOf(action, "callId") });
    this.#markDenied(callId === null ? this.#onlyOpenActCall(toolName, signal.branchId) : this.#calls.get(callId), signal, attributes, reason, hook);
  }

  /**
   * An action authorized by hand names no call: it belongs to a call only when exactly one act()
   * call of that tool is open on the branch (with two, guessing could mark the allowed one).
   */
  #onlyOpenActCall(toolName: string | null, branchId: string | null): OpenCall | undefined {
    let found: OpenCall | undefined;
    for (const call of this.#calls.values()) {
      if (call.kind !== "tool" || call.source !== "act" || call.toolName !== toolName || call.branchId !== branchId) continue;
      if (found) return undefined;
      found = call;
    }
    return found;
  }

  #markDenied(call: OpenCall | undefined, signal: EncodedSignal, attributes: Attributes, reason: string, hook: string | null): void {
    const at = this.#times.of(signal.createdAt);
    if (call === undefined) {
      this.#parentSpan(signal.branchId).addEvent(signal.kind, attributes, at);
      return;
    }
    call.span.addEvent(signal.kind, attributes, at);
    call.span.setAttributes(definedAttributes({ [HOOKLENS.denialReason]: reason, [HOOKLENS.denialKind]: signal.kind, [HOOKLENS.denialHook]: hook }));
    // A ShortCircuit supplies the call's result: the call did not fail. Every other denial refused it.
    if (DENIALS.has(signal.kind) && signal.kind === "HookShortCircuit") return;
    call.deniedFor = reason;
    call.span.setStatus({ code: SpanStatusCode.ERROR, message: reason });
  }

  #runStart(signal: EncodedSignal, f: Fields): void {
    const key = signal.branchId ?? "";
    if (this.#runs.has(key)) return;
    const agent = this.#agents.of(signal.branchId, f["metadata"]);
    const span = this.#tracer.startSpan(
      agent === null ? GEN_AI_OPERATION.invokeAgent : spanName(GEN_AI_OPERATION.invokeAgent, agent.name),
      { kind: SpanKind.INTERNAL, startTime: this.#times.of(signal.createdAt), attributes: definedAttributes({ [GEN_AI.operationName]: GEN_AI_OPERATION.invokeAgent, [HOOKLENS.branchId]: signal.branchId, ...agentAttributes(agent) }) },
      this.#parentContext(null, signal.createdAt),
    );
    this.#runs.set(key, { span, context: trace.setSpan(ROOT_CONTEXT, span), metadata: f["metadata"], agent });
  }

  /** Names the open runs that no agent named yet, once a `session.start` or `branch.create` names one (emitted inside the run). */
  #nameRuns(): void {
    for (const [key, run] of this.#runs) {
      if (run.agent !== null) continue;
      run.agent = this.#agents.of(key === "" ? null : key, run.metadata);
      if (run.agent === null) continue;
      run.span.updateName(spanName(GEN_AI_OPERATION.invokeAgent, run.agent.name));
      run.span.setAttributes(definedAttributes(agentAttributes(run.agent)));
    }
  }

  #runEnd(signal: EncodedSignal, f: Fields, error: { name: string; message: string } | null): void {
    const key = signal.branchId ?? "";
    const run = this.#runs.get(key);
    if (!run) return;
    const at = this.#times.of(signal.createdAt);
    if (error) {
      run.span.recordException(error, at);
      run.span.setAttribute(ERROR_TYPE, error.name);
      run.span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
    } else {
      // A run's usage is summed over its messages' model responses: with none (calls through an
      // IModel or the Executor carry theirs on their chat spans) its zeros measured nothing.
      const turns = countOf(f["numTurns"]);
      const measured = turns !== 0;
      run.span.setAttributes(
        definedAttributes({ [GEN_AI.inputTokens]: measured ? countOf(f["inputTokens"]) : undefined, [GEN_AI.outputTokens]: measured ? countOf(f["outputTokens"]) : undefined, "hooklens.run.turns": turns }),
      );
    }
    run.span.end(at);
    this.#runs.delete(key);
  }

  #runEvent(signal: EncodedSignal, f: Fields): void {
    const event = textOf(f, "event") ?? "run.event";
    const runId = idOf(f["runId"]);
    const callId = runId === null ? undefined : this.#runCalls.get(runId);
    const span = (callId === undefined ? undefined : this.#calls.get(callId)?.span) ?? this.#parentSpan(signal.branchId);
    const attributes: Attributes = definedAttributes({ [HOOKLENS.runId]: textOf(f, "runId"), [HOOKLENS.runEvent]: event });
    const payload = objectOf(f["payload"]);
    if (payload) {
      for (const key of Object.keys(payload)) {
        const value = exportedPrimitive(key, payload[key]);
        if (value !== undefined) attributes[`${HOOKLENS.runEvent}.${key}`] = value;
      }
    }
    span.addEvent(event, attributes, this.#times.of(signal.createdAt));
  }

  #open(callId: string, call: OpenCall): void {
    this.#calls.set(callId, call);
    if (call.runId !== null) this.#runCalls.set(call.runId, callId);
  }

  #close(callId: string, call: OpenCall, at: HrTime, atSeconds: number): void {
    this.#endHandlerRuns(call, atSeconds);
    call.span.end(at);
    this.#calls.delete(callId);
    if (call.runId !== null && this.#runCalls.get(call.runId) === callId) this.#runCalls.delete(call.runId);
  }

  #endHandlerRuns(call: OpenCall, endedAt: number): void {
    const runs = call.handlerRuns;
    if (runs === null) return;
    call.handlerRuns = null;
    const parent = trace.setSpan(ROOT_CONTEXT, call.span);
    for (const run of runs) this.#streamHandlerSpan(run, call, parent, endedAt);
  }

  #recordError(call: OpenCall, error: { name: string; message: string }, at: HrTime, atSeconds: number): void {
    if (!call.exceptionRecorded) {
      call.exceptionRecorded = true;
      call.span.recordException(error, at);
      call.span.setAttribute(ERROR_TYPE, error.name);
      if (STOPS.has(error.name)) call.span.addEvent("hooklens.stop", { [HOOKLENS.stopKind]: error.name, [HOOKLENS.stopReason]: error.message }, this.#times.of(atSeconds));
    }
    call.span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
  }
}

/** A middleware run's id and thread id (also the GenAI conversation id), when the call has them. */
function addRunAttributes(attributes: Attributes, f: Fields): void {
  const runId = textOf(f, "runId");
  if (runId !== null) attributes[HOOKLENS.runId] = runId;
  const threadId = textOf(f, "threadId");
  if (threadId !== null) {
    attributes[HOOKLENS.threadId] = threadId;
    attributes[GEN_AI.conversationId] = threadId;
  }
}

/** `gen_ai.agent.name` and `gen_ai.agent.id` of an invoke_agent span (none without an agent). */
function agentAttributes(agent: Agent | null): Record<string, string | null> {
  return agent === null ? {} : { [GEN_AI.agentName]: agent.name, [GEN_AI.agentId]: agent.id };
}

/** A hook point as its span events show it, under the redaction rules that produced it. */
interface PointEvent {
  readonly rules: RedactionRules;
  readonly name: string;
  /** `{ hooklens.hook.point }`, frozen: one object per point (the SDK copies event attributes anyway). */
  readonly attributes: Attributes;
}

const POINT_EVENTS = new Map<string, PointEvent>();

/** The exported name and attributes of a hook point, redacted once per point (and again when the rules change). */
function pointEvent(point: string): PointEvent {
  const rules = redactionRules();
  let event = POINT_EVENTS.get(point);
  if (event === undefined || event.rules !== rules) {
    const name = exportedText("point", point);
    event = { rules, name, attributes: Object.freeze({ [HOOKLENS.hookPoint]: name }) };
    if (POINT_EVENTS.size < 64 || POINT_EVENTS.has(point)) POINT_EVENTS.set(point, event);
  }
  return event;
}

/** Drops the entries whose value is null or undefined (attributes cannot hold them). */
function definedAttributes(entries: Record<string, string | number | boolean | null | undefined>): Attributes {
  const out: Attributes = {};
  for (const key in entries) {
    const value = entries[key];
    if (value !== null && value !== undefined) out[key] = value;
  }
  return out;
}
