import type { SignalFrame } from "@hooklens/runtime/live";
import { durationText, formatCount, joinParts } from "./format.js";
import { readKind } from "./kindFacts.js";
import { asRecord, clip, errorText, numberField, stringField, type JsonRecord } from "./payloadFields.js";
import { kindStyle } from "./signalKinds.js";
import { sourceOf, type SourceLocation } from "./sourceLocation.js";

export { SIGNALS_DROPPED_KIND, isDenialKind } from "./kindFacts.js";
export type { SourceLocation } from "./sourceLocation.js";

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
const FAILED_STATUSES = new Set(["error", "failed", "failure"]);

/** A hook point a program reports a model call on (api.pre_call, api.stream_chunk, api.post_call). */
export function isModelPoint(kindKey: string): boolean {
  return MODEL_POINTS.has(kindKey);
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

export type Mutable<T> = { -readonly [K in keyof T]: T[K] };

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

function arrow(summary: string | null): string {
  return summary ? `→ ${clip(summary, 60)}` : "";
}

export function shortId(id: string): string {
  return id.length > 8 ? id.slice(0, 8) : id;
}
