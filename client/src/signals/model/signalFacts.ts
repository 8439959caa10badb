import type { SignalFrame } from "@hooklens/runtime/live";
import { deniedNodeName, NODE_PHASE } from "../../../../server/src/cli/deniedNode.js";
import { formatCount, formatMs, joinParts } from "./format.js";
import { asRecord, clip, errorText, numberField, stringField, type JsonRecord } from "./payloadFields.js";
import { kindStyle } from "./signalKinds.js";

/** The kind of the marker the stores write (and the view inserts for a live `dropped` frame) where signals were lost. */
export const SIGNALS_DROPPED_KIND = "SignalsDropped";

export type CallKind = "tool" | "model";
export type Problem = "error" | "denied";

/** The call a signal belongs to: tool and model call ids live in separate spaces. */
export interface CallRef {
  readonly kind: CallKind;
  readonly callId: string;
  /** The call this one ran inside, when the signal says so (an act() call an Executor tool call ran, an IModel call an Executor model call made). */
  readonly parentCallId: string | null;
}

/** One service hook phase reported with a finished model call. */
export interface HookPhase {
  readonly hookType: string;
  readonly status: string;
  readonly durationMs: number | null;
  readonly error: string | null;
  /** POSIX seconds it started at, when reported. */
  readonly startedAt: number | null;
  /** Where the program registered the phase's handler, when reported. */
  readonly source: SourceLocation | null;
}

/** A place in the user's source a signal points at. */
export interface SourceLocation {
  readonly file: string;
  /** 1-based. */
  readonly line: number;
  /** 1-based; 1 when the signal does not say. */
  readonly column: number;
}

/** Everything the view reads from one signal, computed once when it arrives. */
export interface SignalFacts {
  /** The hook point of a HookSignal, else the signal's kind: what filters and icons key on. */
  readonly kindKey: string;
  readonly branchId: string | null;
  readonly call: CallRef | null;
  readonly toolName: string | null;
  readonly model: string | null;
  readonly durationMs: number | null;
  readonly problem: Problem | null;
  /** The error text or the denial's reason. */
  readonly detail: string | null;
  /** Which hook denied, as the runtime names it (`tool.pre:guard`, `GuardrailHook.beforeTool`). */
  readonly hook: string | null;
  /** The flow node a denial was about, as `flow/node` (its `flowName` and `nodeName`); null for any other call. */
  readonly node: string | null;
  readonly tokens: number | null;
  readonly chunks: number | null;
  readonly hookPhases: readonly HookPhase[];
  readonly droppedCount: number | null;
  /** A Tool's id on the act() record of a call (the action messages name it as sender or recipient). */
  readonly toolInstanceId: string | null;
  /** The Tool id an action request or response message is addressed to or from. */
  readonly messagePeer: string | null;
  /** Which half of a tool call's action messages this is, if it is one. */
  readonly actionMessage: "request" | "response" | null;
  readonly source: SourceLocation | null;
  /** The row's label: what happened, in words. */
  readonly label: string;
  /** The name this signal gives a branch: a `branch.create` hook's `agentName`, a RunStart's `branchName`. */
  readonly branchName: BranchName | null;
}

/** A branch's name as a signal gives it; `declared` when a `branch.create` hook named it. */
export interface BranchName {
  readonly branchId: string;
  readonly name: string;
  readonly declared: boolean;
}

/** Shared by every signal that reports no service hook phases (most): one array, not one per signal. */
const NO_PHASES: readonly HookPhase[] = Object.freeze([]);
const TOOL_POINTS = new Set(["tool.pre", "tool.post", "tool.error"]);
const MODEL_POINTS = new Set(["api.pre_call", "api.stream_chunk", "api.post_call"]);
const DENIAL_KINDS = new Set(["ToolCallBlocked", "HookShortCircuit", "GuardrailBlock"]);
const FAILED_STATUSES = new Set(["error", "failed", "failure"]);

/** A hook point a program reports a model call on (api.pre_call, api.stream_chunk, api.post_call). */
export function isModelPoint(kindKey: string): boolean {
  return MODEL_POINTS.has(kindKey);
}

/** The runtime's signals that record a refused call (each carries `toolName`, `callId`, `reason`, `hook`). */
export function isDenialKind(kindKey: string): boolean {
  return DENIAL_KINDS.has(kindKey);
}

/** Reads a signal frame into the facts the tree shows. Never throws, whatever the payload holds. */
export function readSignal(frame: SignalFrame): SignalFacts {
  const payload = frame.payload;
  const metadata = asRecord(payload["metadata"]);
  const branchId = frame.branchId ?? stringField(metadata, "branchId");
  const point = frame.kind === "HookSignal" ? stringField(payload, "point") : null;
  const base: Mutable<SignalFacts> = {
    kindKey: point ?? frame.kind,
    branchId,
    call: null,
    toolName: null,
    model: null,
    durationMs: null,
    problem: null,
    detail: null,
    hook: null,
    node: null,
    tokens: null,
    chunks: null,
    hookPhases: NO_PHASES,
    droppedCount: null,
    toolInstanceId: null,
    messagePeer: null,
    actionMessage: null,
    // GateDenied keeps the as-built fields and carries where the gate was set in its metadata.
    source: sourceOf(payload) ?? (metadata ? sourceOf(metadata) : null),
    label: "",
    branchName: null,
  };
  if (point !== null) readHookSignal(base, point, asRecord(payload["payload"]) ?? {});
  else readKind(base, frame.kind, payload);
  base.label ||= kindStyle(base.kindKey).name;
  return base;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function readHookSignal(facts: Mutable<SignalFacts>, point: string, inner: JsonRecord): void {
  facts.source ??= sourceOf(inner);
  const name = kindStyle(point).name;
  if (TOOL_POINTS.has(point)) {
    const toolName = stringField(inner, "toolName") ?? "tool";
    const callId = stringField(inner, "callId");
    facts.toolName = toolName;
    if (callId) facts.call = { kind: "tool", callId, parentCallId: null };
    const seconds = numberField(inner, "duration");
    facts.durationMs = seconds === null ? null : seconds * 1000;
    if (point === "tool.pre") {
      facts.label = `${point} ${toolName} ${clip(stringField(inner, "argsSummary") ?? "", 60)}`.trim();
    } else if (point === "tool.post") {
      facts.label = joinParts([point, toolName, durationText(facts.durationMs), arrow(stringField(inner, "resultSummary"))], " ");
    } else {
      facts.problem = "error";
      facts.detail = errorText(inner["error"]) ?? "failed";
      facts.label = `${point} ${toolName}: ${clip(facts.detail)}`;
    }
    return;
  }
  if (MODEL_POINTS.has(point)) {
    // A model call a program reports on the session bus (api.pre_call → chunks → api.post_call).
    const callId = stringField(inner, "callId");
    if (callId) facts.call = { kind: "model", callId, parentCallId: null };
    facts.model = stringField(inner, "model");
    if (point === "api.stream_chunk") {
      facts.chunks = 1;
      const chunk = inner["chunk"];
      facts.label = `${point}${chunk === undefined ? "" : ` ${clip(JSON.stringify(chunk) ?? "", 40)}`}`;
      return;
    }
    const tokens = inner["tokens"];
    facts.tokens = typeof tokens === "number" ? tokens : numberField(asRecord(tokens), "total");
    facts.label = joinParts([point, facts.model ?? "", facts.tokens !== null ? formatCount(facts.tokens, "token") : ""], " ");
    return;
  }
  if (point === "session.start") {
    facts.model = stringField(inner, "model");
    facts.label = facts.model ? `${name} · ${facts.model}` : name;
    return;
  }
  if (point === "session.end") {
    const status = stringField(inner, "status");
    const error = errorText(inner["error"]);
    if (error || (status && FAILED_STATUSES.has(status))) {
      facts.problem = "error";
      facts.detail = error ?? status;
    }
    facts.durationMs = numberField(inner, "durationMs");
    facts.label = [name, status ? `· ${status}` : "", error ? `: ${clip(error)}` : ""].join(" ").replace(/ +/g, " ").replace(" :", ":").trim();
    return;
  }
  const created = point === "branch.create" ? stringField(inner, "branchId") : null;
  const agentName = created ? stringField(inner, "agentName") : null;
  if (created && agentName) facts.branchName = { branchId: created, name: agentName, declared: true };
  facts.label = created ? `${name} ${shortId(created)}` : point;
}

function readKind(facts: Mutable<SignalFacts>, kind: string, payload: JsonRecord): void {
  const name = kindStyle(kind).name;
  if (DENIAL_KINDS.has(kind)) {
    readDenial(facts, kind, payload);
    return;
  }
  switch (kind) {
    case "GateDenied": {
      facts.problem = "denied";
      const action = asRecord(payload["data"]);
      const toolName = toolNameOfAction(action);
      facts.toolName = toolName;
      // act() puts its call's id on the action it authorizes; an action built by hand (or a
      // recording made before that) names none, and the session model decides where it goes.
      const callId = stringField(action, "callId");
      if (callId) facts.call = { kind: "tool", callId, parentCallId: null };
      // Why and which gate ride in the metadata (GateDenied keeps its as-built fields); older recordings name neither.
      const metadata = asRecord(payload["metadata"]);
      facts.hook = stringField(metadata, "hook");
      facts.detail = stringField(metadata, "reason") ?? "the observer's gate refused it";
      facts.label = toolName ? `${toolName} — denied by the observer gate` : name;
      return;
    }
    case "MessageAdded": {
      const ref = asRecord(payload["messageRef"]);
      const role = stringField(ref, "role");
      if (role === "action_request") facts.messagePeer = stringField(ref, "recipient");
      if (role === "action_response") facts.messagePeer = stringField(ref, "sender");
      if (facts.messagePeer) facts.actionMessage = role === "action_request" ? "request" : "response";
      facts.label = role ? `${name} · ${role.replace(/_/g, " ")}` : name;
      return;
    }
    case "Signal":
      readPlainSignal(facts, payload);
      return;
    case "RunStart": {
      // A named branch's run carries the name (createAgent names a branch after its AgentSpec).
      const branchName = stringField(asRecord(payload["metadata"]), "branchName");
      if (branchName && facts.branchId) facts.branchName = { branchId: facts.branchId, name: branchName, declared: false };
      facts.label = name;
      return;
    }
    case "RunEnd": {
      facts.durationMs = numberField(payload, "durationMs");
      const tokens = (numberField(payload, "inputTokens") ?? 0) + (numberField(payload, "outputTokens") ?? 0);
      facts.tokens = tokens || null;
      facts.label = joinParts([name, durationText(facts.durationMs), facts.tokens ? formatCount(facts.tokens, "token") : ""], " ");
      return;
    }
    case "RunFailed":
      facts.problem = "error";
      facts.detail = errorText(payload["data"]) ?? "failed";
      facts.label = `${name}: ${clip(facts.detail)}`;
      return;
    case "ToolCallStarted": {
      const toolName = stringField(payload, "toolName") ?? "tool";
      facts.toolName = toolName;
      facts.call = callRef("tool", payload);
      const source = stringField(payload, "source");
      facts.label = `${toolName} started${source ? ` (${source})` : ""}`;
      return;
    }
    case "ToolCallFinished":
      readToolFinished(facts, payload);
      return;
    case "ModelCallStarted": {
      facts.model = stringField(payload, "model");
      facts.call = callRef("model", payload);
      facts.label = `model ${facts.model ?? "call"} started${payload["stream"] === true ? " (stream)" : ""}`;
      return;
    }
    case "ModelCallFinished":
      readModelFinished(facts, payload);
      return;
    case "ModelStreamChunks": {
      facts.call = callRef("model", payload);
      facts.chunks = numberField(payload, "chunks");
      const first = numberField(payload, "firstAt");
      const last = numberField(payload, "lastAt");
      if (first !== null && last !== null) facts.durationMs = (last - first) * 1000;
      facts.label = joinParts([formatCount(facts.chunks ?? 0, "chunk"), durationText(facts.durationMs)], " over ");
      return;
    }
    case "RunEvent": {
      const event = stringField(payload, "event");
      facts.label = event ? `${event} ${clip(JSON.stringify(payload["payload"] ?? {}), 60)}` : name;
      return;
    }
    case SIGNALS_DROPPED_KIND: {
      const count = numberField(payload, "count") ?? 0;
      facts.droppedCount = count;
      const reason = stringField(payload, "reason");
      facts.detail = reason;
      facts.label = `${formatCount(count, "signal")} dropped here`;
      return;
    }
    default: {
      const data = payload["data"];
      facts.label = data === undefined ? kind : `${kind} ${clip(JSON.stringify(data) ?? "", 60)}`;
    }
  }
}

/** ToolCallBlocked, HookShortCircuit, GuardrailBlock: `refund — blocked by guard: amount > 100`. */
function readDenial(facts: Mutable<SignalFacts>, kind: string, payload: JsonRecord): void {
  facts.problem = "denied";
  facts.toolName = stringField(payload, "toolName");
  const callId = stringField(payload, "callId");
  if (callId) facts.call = { kind: facts.toolName === null ? "model" : "tool", callId, parentCallId: null };
  facts.hook = stringField(payload, "hook");
  facts.detail = stringField(payload, "reason");
  facts.node = deniedNodeName(stringField(payload, "flowName"), stringField(payload, "nodeName"));
  // No tool: a model call, or a flow node, named when the signal names it (a recording made
  // before `flowName`/`nodeName` existed is told by the phase of the hook that decided).
  const subject =
    facts.toolName ??
    (facts.node !== null ? `flow node ${facts.node}` : facts.hook !== null && NODE_PHASE.test(facts.hook) ? "flow node" : "model call");
  const by = hookName(facts.hook);
  if (kind === "HookShortCircuit") facts.label = `${subject} — skipped by ${by}`;
  else facts.label = `${subject} — blocked by ${by}${facts.detail ? `: ${clip(facts.detail)}` : ""}`;
}

/** `tool.pre:guard` → `guard`; an anonymous TOOL_PRE handler is named by its point. */
function hookName(hook: string | null): string {
  if (!hook) return "a hook";
  const at = hook.indexOf(":");
  if (at < 0) return hook;
  const handler = hook.slice(at + 1);
  return handler === "" || handler === "anonymous" ? `a ${hook.slice(0, at)} hook` : handler;
}

function readToolFinished(facts: Mutable<SignalFacts>, payload: JsonRecord): void {
  const toolName = stringField(payload, "toolName") ?? "tool";
  facts.toolName = toolName;
  facts.call = callRef("tool", payload);
  facts.durationMs = numberField(payload, "durationMs");
  const status = stringField(payload, "status");
  if (status === "error") {
    facts.problem = "error";
    facts.detail = errorText(payload["error"]) ?? "failed";
    facts.label = `${toolName} failed: ${clip(facts.detail)}`;
  } else if (status === "denied" || status === "skipped") {
    facts.problem = "denied";
    facts.detail = stringField(payload, "reason");
    facts.label = `${toolName} ${status}${facts.detail ? `: ${clip(facts.detail)}` : ""}`;
  } else {
    facts.label = [toolName, status ?? "finished", durationText(facts.durationMs)].join(" ").trim();
  }
}

function readModelFinished(facts: Mutable<SignalFacts>, payload: JsonRecord): void {
  facts.call = callRef("model", payload);
  facts.model = stringField(payload, "responseModel");
  facts.durationMs = numberField(payload, "durationMs");
  facts.chunks = numberField(payload, "chunks");
  const input = numberField(payload, "inputTokens");
  const output = numberField(payload, "outputTokens");
  facts.tokens = input === null && output === null ? null : (input ?? 0) + (output ?? 0);
  const phases = Array.isArray(payload["hookRuns"]) ? payload["hookRuns"] : [];
  facts.hookPhases = phases.flatMap((phase) => {
    const record = asRecord(phase);
    const hookType = stringField(record, "hookType");
    if (!record || !hookType) return [];
    return [{ hookType, status: stringField(record, "status") ?? "", durationMs: numberField(record, "durationMs"), error: stringField(record, "error"), startedAt: numberField(record, "startedAt"), source: sourceOf(record) }];
  });
  const status = stringField(payload, "status");
  if (status === "error") {
    facts.problem = "error";
    facts.detail = errorText(payload["error"]) ?? "failed";
    facts.label = `model call failed: ${clip(facts.detail)}`;
    return;
  }
  facts.label = joinParts([
    "model call",
    status === "cancelled" ? "cancelled" : "finished",
    facts.chunks ? formatCount(facts.chunks, "chunk") : "",
    facts.tokens !== null ? formatCount(facts.tokens, "token") : "",
  ], " ");
}

/** The plain Signal act() records for a tool call: the FunctionCalling with its execution. */
function readPlainSignal(facts: Mutable<SignalFacts>, payload: JsonRecord): void {
  const data = asRecord(payload["data"]);
  const funcTool = asRecord(data?.["funcTool"]);
  const toolName = toolNameOfAction(data);
  if (!funcTool || !toolName) {
    const raw = payload["data"];
    facts.label = raw === undefined ? "signal" : `signal ${clip(JSON.stringify(raw) ?? "", 60)}`;
    return;
  }
  facts.toolName = toolName;
  facts.toolInstanceId = stringField(funcTool, "id");
  const execution = asRecord(data?.["execution"]);
  const status = stringField(execution, "status");
  const seconds = numberField(execution, "duration");
  facts.durationMs = seconds === null ? null : seconds * 1000;
  const error = errorText(execution?.["error"]);
  if (status === "failed" || error) {
    facts.problem = "error";
    facts.detail = error ?? "failed";
  }
  facts.label = joinParts([`${toolName} call record`, status ?? "", durationText(facts.durationMs)], " ");
}

/** A tool name from an action (a FunctionCalling's tool schema, or a plain `{function}` request). */
function toolNameOfAction(action: JsonRecord | null): string | null {
  const schema = asRecord(asRecord(asRecord(action?.["funcTool"])?.["toolSchema"])?.["function"]);
  return stringField(schema, "name") ?? stringField(action, "function") ?? stringField(action, "toolName");
}

function callRef(kind: CallKind, payload: JsonRecord): CallRef | null {
  const callId = stringField(payload, "callId");
  return callId ? { kind, callId, parentCallId: stringField(payload, "parentCallId") } : null;
}

function durationText(ms: number | null): string {
  return ms === null ? "" : formatMs(ms);
}

function arrow(summary: string | null): string {
  return summary ? `→ ${clip(summary, 60)}` : "";
}

export function shortId(id: string): string {
  return id.length > 8 ? id.slice(0, 8) : id;
}

const SOURCE_KEYS = ["source", "location"] as const;

/**
 * A source location a signal carries: a `source` or `location` field (here or in a hook
 * signal's payload) as `{ file, line, column? }` or as `"path:line[:column]"`.
 */
function sourceOf(payload: JsonRecord): SourceLocation | null {
  // Most signals name no place: leave before anything is allocated.
  if (payload["source"] === undefined && payload["location"] === undefined) return null;
  for (const key of SOURCE_KEYS) {
    const value = payload[key];
    if (typeof value === "string") {
      const match = /^(.+?):(\d+)(?::(\d+))?$/.exec(value);
      if (match) return { file: match[1]!, line: Number(match[2]), column: match[3] ? Number(match[3]) : 1 };
    }
    const record = asRecord(value);
    const file = stringField(record, "file") ?? stringField(record, "path");
    const line = numberField(record, "line");
    if (file && line !== null && line >= 1) return { file, line: Math.floor(line), column: Math.max(1, Math.floor(numberField(record, "column") ?? 1)) };
  }
  return null;
}
