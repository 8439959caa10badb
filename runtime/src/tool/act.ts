import { performance } from "node:perf_hooks";
import { definitionSiteOf, type SourceLocation } from "../shared/definitionSite.js";
import { getLogger } from "../shared/log.js";
import type { HookBus } from "../session/hookBus.js";
import { ToolCallBlocked } from "../session/auditSignals.js";
import { ToolCallFinished, ToolCallStarted, callError, type ToolCallFinishInit } from "../signals/callSignals.js";
import { LOG_AND_RECORD, RECORD_DEFERRED, recordDeferredTo, type SignalMaker } from "../signals/signalRecorder.js";
import { RESOLVED } from "../shared/async.js";
import { blockingHandlerOf } from "../session/hookChain.js";
import { HookPoint } from "../session/hookPoint.js";
import { Message, type MessageInit } from "../session/message.js";
import { madeInit } from "../session/signal.js";
import { ToolCallAction } from "../session/toolCallAction.js";
import type { ActionManager } from "./actionManager.js";
import { readEnvelope } from "./actionRequest.js";
import { ConfigurationError } from "./errors.js";
import type { FunctionCalling } from "./functionCalling.js";
import { isPlainObject, type ToolArgs } from "./objects.js";
import { summarize } from "./summary.js";
import { optionsObject, requireObject } from "../shared/arguments.js";
import { newId } from "../shared/ids.js";

/** What a tool call returns to the caller: the call and its output (or an error object). */
export interface ActionResponseModel {
  function: string;
  arguments: unknown;
  output: unknown;
}

/** The parts of a Branch the action flow uses. `Branch` has all of them. */
export interface ActingBranch {
  readonly id: string;
  readonly hooks: HookBus | null;
  /** Where the branch records signals; when null, the call's ToolCallStarted/Finished are not even built. */
  readonly observer?: object | null;
  readonly actionManager: ActionManager;
  authorize(action: unknown): Promise<boolean>;
  emit(event: unknown): Promise<unknown[]>;
  emitAndLog(event: unknown): Promise<unknown[]>;
  /** @internal */
  [LOG_AND_RECORD]?(event: unknown): PromiseLike<unknown> | undefined;
  /** @internal */
  [RECORD_DEFERRED]?<S>(maker: SignalMaker<S>, source: S): PromiseLike<unknown> | undefined;
  hasMessage(id: string): boolean;
  addMessageAsync<C>(message: Message<C> | MessageInit<C>): Promise<Message<C>>;
}

export interface ActOptions {
  /** Turn a failed invocation into an error response instead of throwing. A TOOL_PRE guard's error is thrown regardless. */
  suppressErrors?: boolean;
  /** Log each call's output at info level. */
  verboseAction?: boolean;
  /** The id of the call this one runs inside (the Executor's, when its registry runs tools through act()); recorded on ToolCallStarted. */
  parentCallId?: string;
}

/** The output a governance denial produces. */
export const GOVERNANCE_DENIAL = "denied by governance gate";

/**
 * One tool call on a branch, in the effective order:
 *
 * 1. read the request envelope (`{ function, arguments }`; anything else throws);
 * 2. `branch.authorize(ToolCallAction)` — a denial adds the request/response messages and
 *    returns `{ error: "denied by governance gate" }` as output; no HookBus point fires;
 * 3. TOOL_PRE `{ toolName, callId, argsSummary }` on the branch's bus — blocking: a guard's error
 *    propagates even with `suppressErrors`; no HookSignal is recorded, but a `ToolCallBlocked`
 *    audit signal (tool, call id, reason, `tool.pre:<handler name>`) is emitted first;
 * 4. `ActionManager.invoke` — validation, then preprocessor → callable → postprocessor;
 * 5. TOOL_POST `{ callId, toolName, resultSummary, duration }` on success, or TOOL_ERROR
 *    `{ callId, toolName, error, duration }` when validation or any part of the invocation
 *    (the callable or a processor) fails;
 * 6. the call is emitted to the observer, and the action request/response messages are added.
 *
 * With an observer, a `ToolCallStarted` is recorded before step 2 and a `ToolCallFinished`
 * (`ok`, `error`, or `denied` with the reason) when the call ends, both with the call's id.
 *
 * `callId` is a fresh UUID shared by TOOL_PRE and TOOL_POST/TOOL_ERROR; summaries are cut to
 * 200 characters. `duration` is in seconds (null when the call never ran).
 */
export async function act(branch: ActingBranch, request: unknown, options: ActOptions = {}): Promise<ActionResponseModel> {
  requireObject(branch, "act(branch, request, options)", "branch (a Branch)");
  optionsObject(options, "act(branch, request, options)");
  const envelope = readEnvelope(request);
  const fn = envelope.function;
  const args = envelope.arguments;
  const governedArgs: ToolArgs = isPlainObject(args) ? args : {};
  const callId = newId();
  const record = branch.observer ? new ActRecord(branch, fn, callId, args, options.parentCallId ?? null) : null;

  const allowed = await branch.authorize(new ToolCallAction({ function: fn, arguments: governedArgs, branchId: branch.id, callId }));
  if (!allowed) {
    record?.finish({ status: "denied", reason: GOVERNANCE_DENIAL });
    const denial = { error: GOVERNANCE_DENIAL, function: fn };
    await recordExchange(branch, request, fn, governedArgs, denial, null);
    return { function: fn, arguments: governedArgs, output: denial };
  }

  const bus = branch.hooks;
  if (bus) {
    try {
      // A point with nothing to wait for hands back the settled RESOLVED: not awaiting it keeps
      // a bus that waits for nothing from costing the call a turn (a rejection is never RESOLVED).
      const pre = bus.emit(HookPoint.TOOL_PRE, { toolName: fn, callId, argsSummary: summarize(args) });
      if (pre !== RESOLVED) await pre;
    } catch (error) {
      // The bus records no HookSignal for a blocked chain (the ADR's rule); the audit record is separate.
      await recordBlocked(branch, fn, callId, error);
      record?.finish({ status: "denied", reason: messageOf(error), error: callError(error) });
      throw error;
    }
  }

  let call: FunctionCalling | null = null;
  try {
    // The envelope read once above, never the request again: a getter must not swap the call after authorize.
    call = await branch.actionManager.invoke(envelope);
    if (call.execution.status === "failed") throw call.execution.error;
    if (bus) {
      const post = bus.emit(HookPoint.TOOL_POST, {
        callId,
        toolName: fn,
        resultSummary: summarize(call.execution.response),
        duration: call.execution.duration ?? 0,
      });
      if (post !== RESOLVED) await post;
    }
  } catch (error) {
    if (bus) {
      const failed = bus.emit(HookPoint.TOOL_ERROR, { callId, toolName: fn, error, duration: call?.execution.duration ?? null });
      if (failed !== RESOLVED) await failed;
    }
    record?.finish({ status: "error", error: callError(error) });
    getLogger().debug({ err: error, function: fn, branch: branch.id }, `Tool call ${fn} failed: ${messageOf(error)}`);
    if (!options.suppressErrors) throw error;
    const message = messageOf(error);
    await recordExchange(branch, request, fn, args, { error: message, function: fn, arguments: args }, call);
    return { function: fn, arguments: args, output: { error: message, message: `Error invoking action '${fn}': ${message}` } };
  }

  await logAndRecord(branch, call);
  const output = call.execution.response;
  record?.finish({ status: "ok", result: output });
  if (options.verboseAction) getLogger().info({ function: fn }, `Action ${fn} returned: ${summarize(output)}`);
  await recordExchange(branch, request, fn, call.arguments, output, call);
  return { function: fn, arguments: args, output };
}

export type ActStrategy = "concurrent" | "sequential";

export interface ActAllOptions extends ActOptions {
  /** "concurrent" (default) starts every call at once; "sequential" runs them one after another. */
  strategy?: ActStrategy;
}

/**
 * Runs one request or several and always returns a list. Defaults as built: `strategy:
 * "concurrent"` and `suppressErrors: true`. An unknown strategy is a ConfigurationError.
 */
export async function actAll(branch: ActingBranch, requests: unknown, options: ActAllOptions = {}): Promise<ActionResponseModel[]> {
  requireObject(branch, "actAll(branch, requests, options)", "branch (a Branch)");
  optionsObject(options, "actAll(branch, requests, options)");
  const { strategy = "concurrent", suppressErrors = true, verboseAction = false } = options;
  const list = Array.isArray(requests) ? [...(requests as unknown[])] : [requests];
  const one = (request: unknown): Promise<ActionResponseModel> => act(branch, request, { suppressErrors, verboseAction });
  if (strategy === "concurrent") return Promise.all(list.map(one));
  if (strategy === "sequential") {
    const results: ActionResponseModel[] = [];
    for (const request of list) results.push(await one(request));
    return results;
  }
  throw new ConfigurationError("Invalid strategy. Choose 'concurrent' or 'sequential'.");
}

/**
 * Brackets one act() call with ToolCallStarted and ToolCallFinished on the branch's observer.
 * The record is the source of both: the observer may keep it and build the signals when read.
 */
class ActRecord {
  // Declared and assigned in the constructor (one per call): field definitions cost more.
  /** Until the call ends: the record stays in the observer's window after it, the branch need not. */
  declare branch: ActingBranch | null;
  declare readonly toolName: string;
  declare readonly callId: string;
  declare readonly args: unknown;
  declare readonly parentCallId: string | null;
  declare readonly startedMs: number;
  declare readonly location: SourceLocation | null;
  /** How the call ended and how long it took, once {@link finish} ran. */
  declare outcome: Omit<ToolCallFinishInit, "toolName" | "callId" | "durationMs"> | null;
  declare durationMs: number;

  constructor(branch: ActingBranch, toolName: string, callId: string, args: unknown, parentCallId: string | null) {
    this.branch = branch;
    this.toolName = toolName;
    this.callId = callId;
    this.args = args;
    this.parentCallId = parentCallId;
    this.startedMs = performance.now();
    this.location = definitionSiteOf(branch.actionManager.registry.get(toolName));
    this.outcome = null;
    this.durationMs = 0;
    recordDeferredTo(branch, CALL_STARTED, this);
  }

  finish(outcome: Omit<ToolCallFinishInit, "toolName" | "callId" | "durationMs">): void {
    const branch = this.branch!;
    this.branch = null;
    this.durationMs = performance.now() - this.startedMs;
    this.outcome = outcome;
    recordDeferredTo(branch, CALL_FINISHED, this);
  }
}

/** The ToolCallStarted of an act() call. */
const CALL_STARTED: SignalMaker<ActRecord> = {
  event: (record) => CALL_STARTED.build(record, undefined, undefined),
  build: (record, branchId, createdAt) =>
    new ToolCallStarted(
      { toolName: record.toolName, callId: record.callId, source: "act", arguments: record.args, parentCallId: record.parentCallId, location: record.location },
      madeInit(branchId, createdAt),
    ),
};

/** The ToolCallFinished of an act() call. */
const CALL_FINISHED: SignalMaker<ActRecord> = {
  event: (record) => CALL_FINISHED.build(record, undefined, undefined),
  build: (record, branchId, createdAt) =>
    new ToolCallFinished({ toolName: record.toolName, callId: record.callId, durationMs: record.durationMs, ...record.outcome! }, madeInit(branchId, createdAt)),
};

/** Records the TOOL_PRE denial as a ToolCallBlocked signal; a failure to record is logged, never raised over the denial. */
async function recordBlocked(branch: ActingBranch, toolName: string, callId: string, error: unknown): Promise<void> {
  try {
    const handler = blockingHandlerOf(error);
    await branch.emit(
      new ToolCallBlocked({ toolName, callId, reason: messageOf(error), hook: `${HookPoint.TOOL_PRE}:${handler?.name || "anonymous"}`, location: definitionSiteOf(handler) }),
    );
  } catch (failure) {
    getLogger().error({ err: failure, function: toolName }, `Could not record the blocked call ${toolName}: ${messageOf(failure)}`);
  }
}

/** Adds the action_request message (the request itself when it is one) unless it is there, then the action_response. */
async function recordExchange(
  branch: ActingBranch,
  request: unknown,
  fn: string,
  args: unknown,
  output: unknown,
  call: FunctionCalling | null,
): Promise<void> {
  const toolId = call?.funcTool.id ?? null;
  let requestMessage: Message;
  if (request instanceof Message && request.role === "action_request") {
    requestMessage = branch.hasMessage(request.id) ? request : await branch.addMessageAsync(request);
  } else {
    requestMessage = await branch.addMessageAsync({
      role: "action_request",
      content: { function: fn, arguments: args },
      sender: branch.id,
      recipient: toolId,
    });
  }
  const response = await branch.addMessageAsync({
    role: "action_response",
    content: { function: fn, arguments: args, output, actionRequestId: requestMessage.id },
    sender: toolId,
    recipient: branch.id,
  });
  if (isPlainObject(requestMessage.content)) requestMessage.content["actionResponseId"] = response.id;
}

/**
 * `branch.emitAndLog(call)` without building its result when the branch can skip it: what the
 * caller awaits then is a settled promise, one microtask like the settled result it replaces.
 */
function logAndRecord(branch: ActingBranch, call: FunctionCalling): PromiseLike<unknown> {
  const own = branch[LOG_AND_RECORD];
  if (own === undefined) return branch.emitAndLog(call);
  try {
    return own.call(branch, call) ?? RESOLVED;
  } catch (error) {
    return Promise.reject(error);
  }
}

function messageOf(error: unknown): string {
  try {
    return error instanceof Error ? error.message : String(error);
  } catch {
    return "unknown error";
  }
}
