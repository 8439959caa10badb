import { optionsObject, requireName, requireObject } from "../../shared/arguments.js";
import { InvalidValueError } from "../../shared/errors.js";
import { ToolResult, toolCall, type ToolCall } from "../calls.js";
import { createRunContext, type RunContext, type RunContextOptions, type RunEventListener, type SignalRecorder } from "../context.js";
import { runAfter, runBefore, runOnError, runOnLlmEnd } from "../dispatch.js";
import { ToolUsageError } from "../errors.js";
import type { Hook, NodeUpdate } from "../hook.js";
import { LLMInvocation, NodeInvocation, ToolInvocation } from "../invocations.js";
import type { Ledger, LedgerEntry } from "../ledger.js";
import type { LLMRequest, LLMResponse } from "../llm.js";
import { approve, type Approval } from "./approval.js";
import { BranchTools } from "./branchTools.js";
import type { FlowNode, ModelClient, ToolBackend } from "./backends.js";
import { cacheKey, type ToolCache } from "./cache.js";
import { ModelCallRecord, ToolCallRecord } from "./callRecords.js";
import { environmentRecorder } from "../../signals/environmentRecorder.js";
import { RecorderChoice } from "../../signals/activeSession.js";
import { RunCounter, type RunLimits } from "./limits.js";
import { newId } from "../../shared/ids.js";

export interface ExecutorOptions {
  /** Called in this order in every phase. */
  hooks?: readonly Hook[];
  /** Decides on confirm tools; without it they are refused. */
  approval?: Approval | null;
  /** Serves ok outputs of cacheable tools. */
  cache?: ToolCache | null;
  /** Where model spend is recorded; given to run contexts that have none. */
  ledger?: Ledger | null;
  /** The default model of `callLlm`. */
  model?: ModelClient | null;
  /** Receives run events (for example `budget.warning`) of contexts made by `context()`. */
  onEvent?: RunEventListener;
  /** Per-run caps on calls. */
  limits?: RunLimits;
  /**
   * Where calls are recorded as signals (ToolCallStarted/Finished, ModelCallStarted/Finished, run
   * events, denials) when the run context names no recorder of its own: a SessionObserver,
   * Session or Branch. Default: the branch of its `BranchTools` when that branch is in a Session,
   * else the active session (the Session made last in the process, at the time of the call); with
   * neither, none, unless `HOOKLENS_OTEL` is on, which gives the executor an observer of its own
   * (also settable later through `signals`). `null`: never recorded.
   */
  signals?: SignalRecorder | null;
}

/** A call the model asked for: a name, its arguments and, optionally, the provider's call id. */
export interface ToolCallInput {
  readonly name: string;
  readonly arguments?: Readonly<Record<string, unknown>>;
  readonly id?: string;
}

/**
 * Runs tool calls, model calls and flow nodes through the middleware hooks:
 * before → (approval · cache · call) → after, or on-error when the call step throws.
 */
export class Executor {
  readonly hooks: readonly Hook[];
  readonly #tools: ToolBackend;
  readonly #approval: Approval | null;
  readonly #cache: ToolCache | null;
  readonly #ledger: Ledger | null;
  readonly #model: ModelClient | null;
  readonly #onEvent: RunEventListener | undefined;
  readonly #counter: RunCounter;
  readonly #bound = new WeakMap<RunContext, RunContext>();
  readonly #recording: RecorderChoice;

  constructor(registry: ToolBackend, options: ExecutorOptions = {}) {
    requireObject(registry, "new Executor(registry, options)", "registry (a ToolBackend such as BranchTools)");
    options = optionsObject(options, "new Executor(registry, options)");
    this.#tools = registry;
    this.hooks = Object.freeze([...(options.hooks ?? [])]);
    this.#approval = options.approval ?? null;
    this.#cache = options.cache ?? null;
    this.#ledger = options.ledger ?? null;
    this.#model = options.model ?? null;
    this.#onEvent = options.onEvent;
    this.#counter = new RunCounter(options.limits);
    this.#recording = new RecorderChoice(options.signals, () => environmentRecorder(newId()));
  }

  /** The recorder as given (or set), or HOOKLENS_OTEL's; see {@link ExecutorOptions.signals}. */
  get signals(): SignalRecorder | null {
    return this.#recording.given;
  }

  set signals(recorder: SignalRecorder | null) {
    this.#recording.given = recorder;
  }

  /** The recorder a run context without its own gets now: `signals` when one was given, else the tools' branch in a Session, else the active session, else HOOKLENS_OTEL's. */
  get recorder(): SignalRecorder | null {
    const branch = this.#tools instanceof BranchTools ? this.#tools.branch : null;
    return this.#recording.current(branch?.observer ? branch : null);
  }

  /** A run context wired to this executor's ledger and event listener. */
  context(options: RunContextOptions = {}): RunContext {
    options = optionsObject(options, "Executor.context(options)");
    const onEvent = options.onEvent ?? this.#onEvent;
    return createRunContext({ ...options, ledger: options.ledger ?? this.#ledger, signals: options.signals ?? this.recorder, ...(onEvent ? { onEvent } : {}) });
  }

  /** Runs one tool call through every phase and returns its result. */
  async callTool(input: ToolCallInput | ToolCall, runCtx: RunContext): Promise<ToolResult> {
    requireObject(input, "Executor.callTool(call, ctx)", "call ({ name, arguments })");
    requireName(input.name, "Executor.callTool(call, ctx)", "call.name");
    requireObject(runCtx, "Executor.callTool(call, ctx)", "ctx (from executor.context())");
    const ctx = this.#bind(runCtx);
    const spec = this.#tools.spec(input.name);
    if (spec === undefined) throw new ToolUsageError(`tool ${input.name} is not registered`);
    // Made once the limit is counted, so a refusal wins over arguments the schema refuses (which throw here).
    const invocation = () => new ToolInvocation(spec, toolCall(input.name, { ...(input.arguments ?? {}) }, input.id), ctx);
    try {
      this.#counter.count(ctx, "toolCalls");
    } catch (error) {
      throw refused(ctx, error, (signals) => new ToolCallRecord(signals, invocation()));
    }
    const inv = invocation();
    const record = ctx.signals ? new ToolCallRecord(ctx.signals, inv) : null;
    if (record === null) return this.#toolPhases(inv, null);
    let result: ToolResult;
    try {
      result = await this.#toolPhases(inv, record);
    } catch (error) {
      record.failed(error);
      throw error;
    }
    record.finished(result);
    return result;
  }

  async #toolPhases(first: ToolInvocation, record: ToolCallRecord | null): Promise<ToolResult> {
    let inv = first;
    const skip = await runBefore(this.hooks, "beforeTool", inv);
    if (skip !== null) {
      if (record) record.skipped = true;
      return runAfter(this.hooks, "afterTool", inv, toToolResult(inv, skip.value));
    }

    let approved: ToolInvocation;
    try {
      approved = await approve(inv, this.#approval);
    } catch (error) {
      return this.#recoverTool(inv, error);
    }
    if (approved !== inv) {
      // Edited arguments: to the hooks this is a second beforeTool, so checks see what really runs.
      inv = approved;
      const skipEdited = await runBefore(this.hooks, "beforeTool", inv);
      if (skipEdited !== null) {
        if (record) record.skipped = true;
        return runAfter(this.hooks, "afterTool", inv, toToolResult(inv, skipEdited.value));
      }
    }

    let result: ToolResult;
    try {
      result = await this.#cachedOrRun(inv);
    } catch (error) {
      return this.#recoverTool(inv, error);
    }
    return runAfter(this.hooks, "afterTool", inv, result);
  }

  /**
   * Runs one model call through every phase. `onLlmEnd` runs once at the end however the call
   * ended, with the ledger entry it recorded or null.
   */
  async callLlm(request: LLMRequest, runCtx: RunContext, options: { model?: ModelClient } = {}): Promise<LLMResponse> {
    requireObject(request, "Executor.callLlm(request, ctx)", "request ({ messages })");
    requireObject(runCtx, "Executor.callLlm(request, ctx)", "ctx (from executor.context())");
    const ctx = this.#bind(runCtx);
    const model = options.model ?? this.#model;
    if (model === null) throw new InvalidValueError("callLlm needs a model: pass one to the Executor or to the call");
    const invocation = () => new LLMInvocation(request, model.provider, model.model, ctx);
    try {
      this.#counter.count(ctx, "llmCalls");
    } catch (error) {
      throw refused(ctx, error, (signals) => new ModelCallRecord(signals, invocation(), newId()));
    }
    const inv = invocation();
    const billing: { entry: LedgerEntry | null } = { entry: null };
    const callId = newId();
    const record = ctx.signals ? new ModelCallRecord(ctx.signals, inv, callId) : null;

    let outcome: { ok: true; response: LLMResponse } | { ok: false; error: unknown };
    try {
      outcome = { ok: true, response: await this.#llmPhases(inv, model, billing, record ? callId : null) };
    } catch (error) {
      outcome = { ok: false, error };
    }
    try {
      await runOnLlmEnd(this.hooks, inv, billing.entry);
    } catch (endError) {
      // The call's own error is the one the caller needs; dispatch already logged this one.
      if (outcome.ok) {
        record?.failed(endError);
        throw endError;
      }
    }
    if (!outcome.ok) {
      record?.failed(outcome.error);
      throw outcome.error;
    }
    record?.finished(outcome.response);
    return outcome.response;
  }

  /** Runs one flow node through every phase and returns the state update. */
  async runNode<S extends object>(flow: string, node: FlowNode<S>, state: Readonly<S>, runCtx: RunContext): Promise<NodeUpdate> {
    const ctx = this.#bind(runCtx);
    const inv = new NodeInvocation<S>(flow, node.name, state, ctx);
    const skip = await runBefore(this.hooks, "beforeNode", inv);
    let update: NodeUpdate;
    if (skip !== null) update = toUpdate(skip.value);
    else {
      try {
        update = toUpdate(await node.run(state, ctx));
      } catch (error) {
        const recovered = await runOnError(this.hooks, "onNodeError", inv, error);
        if (recovered === null) throw error;
        return toUpdate(recovered.value);
      }
    }
    return runAfter(this.hooks, "afterNode", inv, update);
  }

  async #llmPhases(inv: LLMInvocation, model: ModelClient, billing: { entry: LedgerEntry | null }, callId: string | null): Promise<LLMResponse> {
    const skip = await runBefore(this.hooks, "beforeLlm", inv);
    let response: LLMResponse;
    if (skip !== null) response = toResponse(skip.value);
    else {
      try {
        response = callId === null ? await model.complete(inv.request, inv.ctx.signal) : await model.complete(inv.request, inv.ctx.signal, { callId });
        billing.entry = bill(inv, response);
      } catch (error) {
        const recovered = await runOnError(this.hooks, "onLlmError", inv, error);
        if (recovered === null) throw error;
        return toResponse(recovered.value);
      }
    }
    return runAfter(this.hooks, "afterLlm", inv, response);
  }

  async #cachedOrRun(inv: ToolInvocation): Promise<ToolResult> {
    const cache = inv.spec.cacheable ? this.#cache : null;
    const key = cache === null ? "" : cacheKey(inv.spec.name, inv.call.arguments);
    if (cache !== null) {
      const hit = await cache.get(key);
      if (hit !== undefined)
        return new ToolResult({ callId: inv.call.id, tool: inv.spec.name, status: "ok", value: hit, attempts: 0, cached: true });
    }
    const result = await this.#tools.run(inv.call, inv.spec, inv.ctx);
    if (cache !== null && result.ok) await cache.set(key, result.value);
    return result;
  }

  async #recoverTool(inv: ToolInvocation, error: unknown): Promise<ToolResult> {
    const recovered = await runOnError(this.hooks, "onToolError", inv, error);
    if (recovered === null) throw error;
    return toToolResult(inv, recovered.value);
  }

  /**
   * The caller's context, given this executor's ledger and signal recorder when it has none (the
   * same object every time while they stay the same).
   */
  #bind(ctx: RunContext): RunContext {
    const needsLedger = ctx.ledger === null && this.#ledger !== null;
    const recorder = (ctx.signals ?? null) === null ? this.recorder : null;
    const needsSignals = recorder !== null;
    if (!needsLedger && !needsSignals) return ctx;
    let bound = this.#bound.get(ctx);
    if (bound === undefined || (needsSignals && bound.signals !== recorder)) {
      const extra = { ...(needsLedger ? { ledger: this.#ledger } : {}), ...(needsSignals ? { signals: recorder } : {}) };
      bound = Object.assign(Object.create(Object.getPrototypeOf(ctx) as object) as RunContext, ctx, extra);
      this.#bound.set(ctx, bound);
    }
    return bound;
  }
}

/**
 * A call the run's limits refused (`error`), recorded when the run records calls: started, then
 * denied with that error, so the stop shows where calls do (a trace, the Signals view, the
 * database). Returns `error`, for the caller to throw.
 */
function refused(ctx: RunContext, error: unknown, record: (signals: SignalRecorder) => { failed(error: unknown): void }): unknown {
  const signals = ctx.signals ?? null;
  if (signals === null) return error;
  let call: { failed(error: unknown): void } | null = null;
  try {
    call = record(signals);
  } catch {
    // Arguments its schema refuses: the call cannot be described; the limit's error still stands.
  }
  call?.failed(error);
  return error;
}

/** A ShortCircuit value as a tool result: a ToolResult stays as it is, anything else is an ok output. */
function toToolResult(inv: ToolInvocation, value: unknown): ToolResult {
  if (value instanceof ToolResult) return value;
  return new ToolResult({ callId: inv.call.id, tool: inv.spec.name, status: "ok", value, attempts: 0 });
}

/** A ShortCircuit value as a model response: a string becomes the content, anything else is taken as a response. */
function toResponse(value: unknown): LLMResponse {
  if (typeof value === "string") return { content: value, finishReason: null, usage: null };
  return value as LLMResponse;
}

function toUpdate(value: unknown): NodeUpdate {
  return value !== null && typeof value === "object" ? (value as NodeUpdate) : {};
}

/** Records the call's usage in the run's ledger; null without a ledger. */
function bill(inv: LLMInvocation, response: LLMResponse): LedgerEntry | null {
  const ledger = inv.ctx.ledger;
  if (ledger === null) return null;
  return ledger.record({
    runId: inv.ctx.runId,
    threadId: inv.ctx.threadId,
    provider: inv.provider,
    model: inv.model,
    inputTokens: response.usage?.inputTokens ?? null,
    outputTokens: response.usage?.outputTokens ?? null,
  });
}
