import { Signal, type SignalInit } from "../session/signal.js";
import { describeValue } from "../shared/arguments.js";
import type { SourceLocation } from "../shared/definitionSite.js";
import { InvalidValueError } from "../shared/errors.js";

/** Which path a call ran through: a Branch's `act()`, the middleware Executor, an IModel, or an SDK bridge (AI SDK, OpenAI Agents). */
export type CallSource = "act" | "executor" | "imodel" | "ai-sdk" | "openai-agents";

/** How a tool call ended: ran ok, failed, was refused before running, or a hook supplied its result. */
export type ToolCallStatus = "ok" | "error" | "denied" | "skipped";

/** An error as a call signal carries it: its type name and message. */
export interface CallError {
  readonly name: string;
  readonly message: string;
}

/** The middleware run a call belongs to (absent outside the Executor). */
export interface RunRef {
  readonly runId?: string | null;
  /** The conversation; null or absent when the run has none. */
  readonly threadId?: string | null;
}

export interface ToolCallStartInit extends RunRef {
  readonly toolName: string;
  readonly callId: string;
  readonly source: CallSource;
  /** The call's arguments; left out for tools whose arguments must never be recorded (confirm tools). */
  readonly arguments?: unknown;
  /** The call this one runs inside (an Executor call running its tool through `act()`). */
  readonly parentCallId?: string | null;
  /** Where the program defined the tool, when known (captured once, when the Tool was made). */
  readonly location?: SourceLocation | null;
}

/**
 * A tool call began. With its {@link ToolCallFinished} (same `callId`) it brackets the call, so
 * a reader (the OpenTelemetry exporter, the Signals view) knows its start, end and outcome
 * whichever path ran it, with or without a HookBus.
 */
export class ToolCallStarted extends Signal<null> {
  static override readonly kind: string = "ToolCallStarted";
  declare readonly toolName: string;
  declare readonly callId: string;
  declare readonly source: CallSource;
  declare readonly runId: string | null;
  declare readonly threadId: string | null;
  declare readonly arguments: unknown;
  declare readonly parentCallId: string | null;
  declare readonly location: SourceLocation | null;

  constructor(call: ToolCallStartInit, init: SignalInit<null> = {}) {
    checkCall(call, "ToolCallStarted", "call ({ toolName, callId, source })", "toolName", "callId");
    super(init);
    this.toolName = call.toolName;
    this.callId = call.callId;
    this.source = call.source;
    this.runId = call.runId ?? null;
    this.threadId = call.threadId || null;
    this.arguments = call.arguments ?? null;
    this.parentCallId = call.parentCallId ?? null;
    this.location = call.location ?? null;
  }
}

export interface ToolCallFinishInit {
  readonly toolName: string;
  readonly callId: string;
  readonly status: ToolCallStatus;
  /** Milliseconds from start to end, measured by the caller's monotonic clock. */
  readonly durationMs: number;
  readonly error?: CallError | null;
  /** Why a denied call was refused. */
  readonly reason?: string | null;
  readonly result?: unknown;
}

/** A tool call ended; see {@link ToolCallStarted}. */
export class ToolCallFinished extends Signal<null> {
  static override readonly kind: string = "ToolCallFinished";
  declare readonly toolName: string;
  declare readonly callId: string;
  declare readonly status: ToolCallStatus;
  declare readonly durationMs: number;
  declare readonly error: CallError | null;
  declare readonly reason: string | null;
  declare readonly result: unknown;

  constructor(call: ToolCallFinishInit, init: SignalInit<null> = {}) {
    checkCall(call, "ToolCallFinished", "call ({ toolName, callId, status, durationMs })", "toolName", "callId");
    super(init);
    this.toolName = call.toolName;
    this.callId = call.callId;
    this.status = call.status;
    this.durationMs = call.durationMs;
    this.error = call.error ?? null;
    this.reason = call.reason ?? null;
    this.result = call.result ?? null;
  }
}

export interface ModelCallStartInit extends RunRef {
  readonly callId: string;
  readonly source: CallSource;
  /** The model asked for; null when the request names none. */
  readonly model: string | null;
  /** The provider or endpoint name. */
  readonly provider: string | null;
  readonly stream: boolean;
  readonly request?: unknown;
  /** The call this one runs inside (an IModel call made by the Executor's model call). */
  readonly parentCallId?: string | null;
}

/** A model call began (IModel `invoke`/`stream`, or the Executor's `callLlm`). */
export class ModelCallStarted extends Signal<null> {
  static override readonly kind: string = "ModelCallStarted";
  declare readonly callId: string;
  declare readonly source: CallSource;
  declare readonly model: string | null;
  declare readonly provider: string | null;
  declare readonly stream: boolean;
  declare readonly runId: string | null;
  declare readonly threadId: string | null;
  declare readonly request: unknown;
  declare readonly parentCallId: string | null;

  constructor(call: ModelCallStartInit, init: SignalInit<null> = {}) {
    checkCall(call, "ModelCallStarted", "call ({ callId, source, model, provider, stream })", "callId");
    super(init);
    this.callId = call.callId;
    this.source = call.source;
    this.model = call.model;
    this.provider = call.provider;
    this.stream = call.stream;
    this.runId = call.runId ?? null;
    this.threadId = call.threadId || null;
    this.request = call.request ?? null;
    this.parentCallId = call.parentCallId ?? null;
  }
}

/** One service hook phase that ran during a model call. */
export interface ServiceHookRun {
  /** `pre_event_create`, `pre_invocation` or `post_invocation`. */
  readonly hookType: string;
  readonly status: string;
  /** POSIX seconds it started. */
  readonly startedAt: number;
  readonly durationMs: number | null;
  readonly error: string | null;
  /** Where the program registered the phase's handler, when known. */
  readonly location?: SourceLocation;
}

export interface ModelCallFinishInit {
  readonly callId: string;
  /** `ok`, `error`, or `cancelled` for a call (or stream) abandoned before it finished. */
  readonly status: "ok" | "error" | "cancelled";
  readonly durationMs: number;
  /** The model the request named, once known (a Started signal may precede the request's creation). */
  readonly requestModel?: string | null;
  /** The model that answered, when the provider says. */
  readonly responseModel?: string | null;
  readonly finishReason?: string | null;
  readonly inputTokens?: number | null;
  readonly outputTokens?: number | null;
  readonly error?: CallError | null;
  /** Chunks a streamed call yielded. */
  readonly chunks?: number | null;
  readonly hookRuns?: readonly ServiceHookRun[];
  readonly response?: unknown;
}

/** A model call ended; see {@link ModelCallStarted}. Token counts are null when the provider reported none. */
export class ModelCallFinished extends Signal<null> {
  static override readonly kind: string = "ModelCallFinished";
  declare readonly callId: string;
  declare readonly status: "ok" | "error" | "cancelled";
  declare readonly durationMs: number;
  declare readonly requestModel: string | null;
  declare readonly responseModel: string | null;
  declare readonly finishReason: string | null;
  declare readonly inputTokens: number | null;
  declare readonly outputTokens: number | null;
  declare readonly error: CallError | null;
  declare readonly chunks: number | null;
  declare readonly hookRuns: readonly ServiceHookRun[] | null;
  declare readonly response: unknown;

  constructor(call: ModelCallFinishInit, init: SignalInit<null> = {}) {
    checkCall(call, "ModelCallFinished", "call ({ callId, status, durationMs })", "callId");
    super(init);
    this.callId = call.callId;
    this.status = call.status;
    this.durationMs = call.durationMs;
    this.requestModel = call.requestModel ?? null;
    this.responseModel = call.responseModel ?? null;
    this.finishReason = call.finishReason ?? null;
    this.inputTokens = call.inputTokens ?? null;
    this.outputTokens = call.outputTokens ?? null;
    this.error = call.error ?? null;
    this.chunks = call.chunks ?? null;
    this.hookRuns = call.hookRuns && call.hookRuns.length > 0 ? call.hookRuns : null;
    this.response = call.response ?? null;
  }
}

/** One run of a stream handler (the registry's handler for a chunk's type) on one chunk. */
export interface StreamHandlerRun {
  /** The handler's key: the chunk type name or class name it is registered under. */
  readonly chunkType: string;
  /** POSIX seconds it started. */
  readonly startedAt: number;
  readonly durationMs: number;
  /** `ok`, `error` (the handler failed: the chunk was kept, or the stream ended under the exit policy) or `cancelled`. */
  readonly status: "ok" | "error" | "cancelled";
  readonly error: CallError | null;
}

/**
 * A batch of stream chunks a model call yielded: how many, when the first and last arrived (POSIX
 * seconds), and each stream handler run since the previous batch (null when none ran).
 */
export class ModelStreamChunks extends Signal<null> {
  static override readonly kind: string = "ModelStreamChunks";
  declare readonly callId: string;
  declare readonly chunks: number;
  declare readonly firstAt: number;
  declare readonly lastAt: number;
  declare readonly handlerRuns: readonly StreamHandlerRun[] | null;

  constructor(batch: { callId: string; chunks: number; firstAt: number; lastAt: number; handlerRuns?: readonly StreamHandlerRun[] | null }, init: SignalInit<null> = {}) {
    checkCall(batch, "ModelStreamChunks", "batch ({ callId, chunks, firstAt, lastAt })", "callId");
    super(init);
    this.callId = batch.callId;
    this.chunks = batch.chunks;
    this.firstAt = batch.firstAt;
    this.lastAt = batch.lastAt;
    this.handlerRuns = batch.handlerRuns && batch.handlerRuns.length > 0 ? batch.handlerRuns : null;
  }
}

/** A run event a middleware hook published (for example `budget.warning`), recorded for the run's readers. */
export class RunEvent extends Signal<null> {
  static override readonly kind: string = "RunEvent";
  declare readonly event: string;
  declare readonly runId: string;
  declare readonly threadId: string | null;
  declare readonly payload: Readonly<Record<string, unknown>>;

  constructor(event: { event: string; runId: string; threadId?: string | null; payload: Readonly<Record<string, unknown>> }, init: SignalInit<null> = {}) {
    checkCall(event, "RunEvent", "event ({ event, runId, payload })", "event", "runId");
    super(init);
    this.event = event.event;
    this.runId = event.runId;
    this.threadId = event.threadId || null;
    this.payload = event.payload;
  }
}

/**
 * What a JavaScript caller can get wrong when it builds a call signal: no object, or no name to
 * match it by. Typeofs only: the runtime builds these on every call.
 */
function checkCall(call: object, type: string, what: string, ...names: string[]): void {
  if (typeof call !== "object" || call === null) refuse(type, what, "", call);
  for (const name of names) {
    const value = (call as Record<string, unknown>)[name];
    if (typeof value !== "string") refuse(type, what, name, value);
  }
}

function refuse(type: string, what: string, field: string, value: unknown): never {
  const argument = what.slice(0, what.indexOf(" "));
  const where = `new ${type}(${argument}, init)`;
  if (field === "") throw new InvalidValueError(`${where}: ${what} must be an object, got ${describeValue(value)}`);
  throw new InvalidValueError(`${where}: ${argument}.${field} must be a string, got ${describeValue(value)}`);
}

/** An error as `{ name, message }`; a thrown non-Error becomes `{ name: typeof, message: String(value) }`. */
export function callError(error: unknown): CallError {
  try {
    if (error instanceof Error) return { name: error.name, message: error.message };
    return { name: typeof error, message: String(error) };
  } catch {
    return { name: "unknown", message: "unreadable error" };
  }
}
