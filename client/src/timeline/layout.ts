import type { SignalFrame } from "@hooklens/runtime/live";
import { formatMs } from "./format.js";
import { compareBars } from "./order.js";
import type { TimelineBar, TimelineLayout, TimelinePhase, TimelineStatus } from "./protocol.js";

/** Signal kinds the runtime records when a call was refused; each carries `toolName`, `callId`, `reason`, `hook`. */
const DENIAL_KINDS: ReadonlySet<string> = new Set(["ToolCallBlocked", "HookShortCircuit", "GuardrailBlock"]);
const TOOL_POINTS: ReadonlySet<string> = new Set(["tool.pre", "tool.post", "tool.error"]);
const MODEL_POINTS: ReadonlySet<string> = new Set(["api.pre_call", "api.stream_chunk", "api.post_call"]);
/** The runtime's call signals: they bracket a call (start, end, outcome) rather than mark a hook phase. */
const TOOL_BRACKETS: ReadonlySet<string> = new Set(["ToolCallStarted", "ToolCallFinished"]);
const MODEL_BRACKETS: ReadonlySet<string> = new Set(["ModelCallStarted", "ModelCallFinished", "ModelStreamChunks"]);
const FINISHED_KINDS: ReadonlySet<string> = new Set(["ToolCallFinished", "ModelCallFinished"]);

/** The signals that make one bar, in time order. */
interface Group {
  key: string;
  kind: TimelineBar["kind"];
  sessionId: string;
  branchId: string | null;
  name: string;
  /** The call this one runs inside (an Executor call and the act() it runs), by call id. */
  parentCallId: string | null;
  signals: SignalFrame[];
  /** For a session: every signal of it, whichever bar it went to (the session bar spans them all). */
  members: SignalFrame[];
}

/**
 * Lays out one run's signals as a waterfall: a bar per session, per observed branch run
 * (RunStart → RunEnd/RunFailed), per tool call (grouped by call id: tool.pre → tool.post,
 * tool.error or a denial) and per model call (api.pre_call → chunks → api.post_call), each
 * with its hook phases; times are milliseconds from the run's first signal. Pure: the same
 * signals give the same layout, whatever order the sessions are passed in.
 */
export function layoutTimeline(signals: readonly SignalFrame[]): TimelineLayout {
  if (signals.length === 0) return { startedAt: 0, durationMs: 0, bars: [] };
  const ordered = [...signals].sort((a, b) => a.createdAt - b.createdAt);
  const startedAt = ordered[0]!.createdAt;
  const toMs = (seconds: number): number => Math.round((seconds - startedAt) * 1_000_000) / 1000;

  const groups = groupSignals(ordered);
  const keys = new Set(groups.map((group) => group.key));
  const bars = groups.map((group) => {
    const bar = barOf(group, toMs);
    const parent = group.parentCallId;
    bar.parentId = parent ? ([`tool:${group.sessionId}:${parent}`, `model:${group.sessionId}:${parent}`].find((key) => keys.has(key)) ?? null) : null;
    return bar;
  });
  const lastMs = toMs(ordered[ordered.length - 1]!.createdAt);
  const durationMs = Math.max(lastMs, ...bars.map((bar) => bar.endMs));
  nestBars(bars);
  return { startedAt, durationMs, bars };
}

function groupSignals(ordered: readonly SignalFrame[]): Group[] {
  const groups: Group[] = [];
  const byKey = new Map<string, Group>();
  /** Model calls still waiting for their api.post_call, per session and branch, oldest first. */
  const openModelCalls = new Map<string, Group[]>();
  const openRuns = new Map<string, Group>();
  let anonymous = 0;

  const groupFor = (key: string, make: () => Omit<Group, "key" | "signals" | "members" | "parentCallId">): Group => {
    let group = byKey.get(key);
    if (!group) {
      group = { key, signals: [], members: [], parentCallId: null, ...make() };
      byKey.set(key, group);
      groups.push(group);
    }
    return group;
  };

  for (const signal of ordered) {
    const { sessionId, branchId } = signal;
    const point = pointOf(signal);
    const inner = innerPayload(signal);
    const session = groupFor(`session:${sessionId}`, () => ({ kind: "session", sessionId, branchId: null, name: `session ${sessionId.slice(0, 8)}` }));
    session.members.push(signal);

    if (point !== null && TOOL_POINTS.has(point) && typeof inner["callId"] === "string") {
      const toolName = stringField(inner, "toolName") ?? "tool";
      groupFor(`tool:${sessionId}:${inner["callId"]}`, () => ({ kind: "tool", sessionId, branchId, name: toolName })).signals.push(signal);
      continue;
    }
    if (TOOL_BRACKETS.has(signal.kind) && stringField(signal.payload, "callId")) {
      const toolName = stringField(signal.payload, "toolName") ?? "tool";
      const group = groupFor(`tool:${sessionId}:${signal.payload["callId"]}`, () => ({ kind: "tool", sessionId, branchId, name: toolName }));
      group.parentCallId ??= stringField(signal.payload, "parentCallId");
      group.signals.push(signal);
      continue;
    }
    if (MODEL_BRACKETS.has(signal.kind) && stringField(signal.payload, "callId")) {
      const group = groupFor(`model:${sessionId}:${signal.payload["callId"]}`, () => ({ kind: "model", sessionId, branchId, name: "model" }));
      const model = stringField(signal.payload, "model") ?? stringField(signal.payload, "responseModel") ?? stringField(signal.payload, "requestModel");
      if (group.name === "model" && model) group.name = `model ${model}`;
      group.parentCallId ??= stringField(signal.payload, "parentCallId");
      group.signals.push(signal);
      continue;
    }
    if (DENIAL_KINDS.has(signal.kind)) {
      const callId = stringField(signal.payload, "callId");
      const toolName = stringField(signal.payload, "toolName");
      const key = callId ? `tool:${sessionId}:${callId}` : `denied:${++anonymous}`;
      groupFor(key, () => ({ kind: toolName === null ? "model" : "tool", sessionId, branchId, name: toolName ?? "model call" })).signals.push(signal);
      continue;
    }
    if (point !== null && MODEL_POINTS.has(point)) {
      modelGroup(signal, point, inner).signals.push(signal);
      continue;
    }
    if (signal.kind === "RunStart") {
      const run = groupFor(`run:${sessionId}:${signal.id}`, () => ({ kind: "run", sessionId, branchId, name: branchId ? `run on branch ${branchId.slice(0, 8)}` : "run" }));
      run.signals.push(signal);
      openRuns.set(`${sessionId}:${branchId}`, run);
      continue;
    }
    if (signal.kind === "RunEnd" || signal.kind === "RunFailed") {
      const open = openRuns.get(`${sessionId}:${branchId}`);
      openRuns.delete(`${sessionId}:${branchId}`);
      (open ?? groupFor(`run:${sessionId}:${signal.id}`, () => ({ kind: "run", sessionId, branchId, name: "run" }))).signals.push(signal);
      continue;
    }
    session.signals.push(signal);
  }
  return groups;

  function modelGroup(signal: SignalFrame, point: string, inner: Record<string, unknown>): Group {
    const { sessionId, branchId } = signal;
    const explicitId = stringField(inner, "callId") ?? stringField(inner, "requestId");
    const name = `model ${stringField(inner, "model") ?? ""}`.trim();
    if (explicitId) return groupFor(`model:${sessionId}:${explicitId}`, () => ({ kind: "model", sessionId, branchId, name }));
    // Without an id, a model call is the oldest one still open on the same session and branch.
    const lane = `${sessionId}:${branchId}`;
    const open = openModelCalls.get(lane) ?? [];
    openModelCalls.set(lane, open);
    if (point === "api.pre_call" || open.length === 0) {
      const group = groupFor(`model:${sessionId}:${signal.id}`, () => ({ kind: "model", sessionId, branchId, name }));
      if (point !== "api.post_call") open.push(group);
      return group;
    }
    const group = open[0]!;
    if (point === "api.post_call") open.shift();
    return group;
  }
}

function barOf(group: Group, toMs: (seconds: number) => number): TimelineBar {
  const span = group.kind === "session" ? group.members : group.signals;
  const first = span[0];
  const last = span[span.length - 1];
  const base = {
    id: group.key,
    kind: group.kind,
    sessionId: group.sessionId,
    branchId: group.branchId,
    parentId: null,
    depth: 0,
  };
  if (!first || !last) return { ...base, label: group.name, detail: "", startMs: 0, endMs: 0, status: "ok", signalId: "", phases: [], signalCount: 0 };

  const phases = group.signals.flatMap((signal) => phasesOf(signal, toMs));
  let startMs = toMs(first.createdAt);
  const endMs = toMs(last.createdAt);
  // A tool's post/error signal and a call's Finished signal carry how long the call ran: the
  // bar covers it even when the start is missing (a session that started recording mid-call).
  for (const signal of group.signals) {
    const seconds = numberField(innerPayload(signal), "duration");
    if (seconds !== null && seconds >= 0) startMs = Math.min(startMs, toMs(signal.createdAt) - seconds * 1000);
    const ms = FINISHED_KINDS.has(signal.kind) ? numberField(signal.payload, "durationMs") : null;
    if (ms !== null && ms >= 0) startMs = Math.min(startMs, toMs(signal.createdAt) - ms);
  }
  startMs = Math.max(0, Math.round(startMs * 1000) / 1000);
  const status = statusOf(group);
  // A bar opens the signal that says how it ended: the denial, the error, the post, else the first.
  const decisive =
    group.signals.find((signal) => DENIAL_KINDS.has(signal.kind)) ??
    group.signals.find((signal) => pointOf(signal) === "tool.error" || signal.kind === "RunFailed") ??
    (group.kind === "session" ? (group.signals[0] ?? first) : last);
  return {
    ...base,
    label: group.name,
    detail: detailOf(group, status, endMs - startMs),
    startMs,
    endMs: Math.max(endMs, startMs),
    status,
    signalId: decisive.id,
    phases,
    signalCount: span.length,
  };
}

/**
 * The hook phases a signal stands for: itself (a tick, or a segment when it says how long it
 * took), nothing for a call's start/end brackets (they make the bar), the service hooks a model
 * call ran and the span of a batch of stream chunks.
 */
function phasesOf(signal: SignalFrame, toMs: (seconds: number) => number): TimelinePhase[] {
  if (signal.kind === "ModelStreamChunks") {
    const firstAt = numberField(signal.payload, "firstAt");
    const lastAt = numberField(signal.payload, "lastAt");
    const chunks = numberField(signal.payload, "chunks") ?? 0;
    if (firstAt === null || lastAt === null) return [];
    return [{ label: `${chunks} chunks`, startMs: Math.max(0, toMs(firstAt)), endMs: Math.max(0, toMs(lastAt)), status: "ok", signalId: signal.id }];
  }
  if (signal.kind === "ModelCallFinished") return hookRunPhases(signal, toMs);
  if (TOOL_BRACKETS.has(signal.kind) || MODEL_BRACKETS.has(signal.kind)) return [];
  return [phaseOf(signal, toMs)];
}

/** A model call's service hook runs (`pre_invocation`, `post_invocation`, …), each with its own start and duration. */
function hookRunPhases(signal: SignalFrame, toMs: (seconds: number) => number): TimelinePhase[] {
  const runs = signal.payload["hookRuns"];
  if (!Array.isArray(runs)) return [];
  return runs.flatMap((run: unknown) => {
    if (typeof run !== "object" || run === null) return [];
    const fields = run as Record<string, unknown>;
    const startedAt = numberField(fields, "startedAt");
    if (startedAt === null) return [];
    const startMs = Math.max(0, toMs(startedAt));
    const durationMs = numberField(fields, "durationMs") ?? 0;
    const failed = fields["error"] !== null && fields["error"] !== undefined;
    return [{ label: stringField(fields, "hookType") ?? "service hook", startMs, endMs: startMs + Math.max(0, durationMs), status: failed ? "error" : "ok", signalId: signal.id }];
  });
}

function phaseOf(signal: SignalFrame, toMs: (seconds: number) => number): TimelinePhase {
  const atMs = toMs(signal.createdAt);
  const seconds = numberField(innerPayload(signal), "duration");
  const startMs = seconds !== null && seconds >= 0 ? Math.max(0, Math.round((atMs - seconds * 1000) * 1000) / 1000) : atMs;
  const status: TimelineStatus = DENIAL_KINDS.has(signal.kind) || signal.kind === "GateDenied"
    ? "denied"
    : pointOf(signal) === "tool.error" || signal.kind === "RunFailed"
      ? "error"
      : "ok";
  return { label: pointOf(signal) ?? signal.kind, startMs, endMs: atMs, status, signalId: signal.id };
}

function statusOf(group: Group): TimelineStatus {
  // The runtime's own verdict, when the call's Finished signal is there.
  const finished = group.signals.find((signal) => FINISHED_KINDS.has(signal.kind));
  const verdict = finished ? stringField(finished.payload, "status") : null;
  if (verdict === "denied" || verdict === "skipped") return "denied";
  if (verdict === "error" || verdict === "cancelled") return "error";
  if (verdict === "ok" && !group.signals.some((signal) => DENIAL_KINDS.has(signal.kind))) return "ok";
  if (group.signals.some((signal) => DENIAL_KINDS.has(signal.kind) || signal.kind === "GateDenied")) return "denied";
  if (group.signals.some((signal) => pointOf(signal) === "tool.error" || signal.kind === "RunFailed")) return "error";
  const points = group.signals.map((signal) => pointOf(signal) ?? signal.kind);
  const ended =
    group.kind === "tool" ? points.includes("tool.post") || points.includes("ToolCallFinished")
    : group.kind === "model" ? points.includes("api.post_call") || points.includes("ModelCallFinished")
    : group.kind === "run" ? points.includes("RunEnd")
    : points.includes("session.end");
  return ended ? "ok" : "open";
}

function detailOf(group: Group, status: TimelineStatus, durationMs: number): string {
  const duration = `${formatMs(durationMs)} ms`;
  const finished = group.signals.find((signal) => FINISHED_KINDS.has(signal.kind));
  if (status === "denied") {
    const denial = group.signals.find((signal) => DENIAL_KINDS.has(signal.kind)) ?? finished;
    const reason = denial ? stringField(denial.payload, "reason") : null;
    return reason ? `denied: ${reason}` : "denied";
  }
  if (status === "error") {
    const failed = group.signals.find((signal) => pointOf(signal) === "tool.error" || signal.kind === "RunFailed");
    const error = failed ? (innerPayload(failed)["error"] ?? failed.payload["data"]) : finished?.payload["error"];
    const message = typeof error === "object" && error !== null ? stringField(error as Record<string, unknown>, "message") : null;
    if (finished && stringField(finished.payload, "status") === "cancelled") return `${duration} · cancelled`;
    return message ? `${duration} · error: ${message}` : `${duration} · error`;
  }
  if (group.kind === "model") {
    const chunks = finishedNumber(finished, "chunks") ?? chunkCount(group);
    const tokens = modelTokens(group, finished);
    return [duration, chunks > 0 ? `${chunks} chunks` : "", tokens !== null ? `${tokens} tokens` : "", status === "open" ? "running" : ""].filter(Boolean).join(" · ");
  }
  if (group.kind === "session") return `${group.members.length} signals`;
  return status === "open" ? `${duration} · running` : duration;
}

function finishedNumber(finished: SignalFrame | undefined, key: string): number | null {
  return finished ? numberField(finished.payload, key) : null;
}

/** Chunks seen so far: the runtime's chunk batches, else the api.stream_chunk signals a program emitted. */
function chunkCount(group: Group): number {
  let count = 0;
  for (const signal of group.signals) {
    if (signal.kind === "ModelStreamChunks") count += numberField(signal.payload, "chunks") ?? 0;
    else if (pointOf(signal) === "api.stream_chunk") count++;
  }
  return count;
}

/** Input plus output tokens from the call's Finished signal, else the total an api.post_call reported. */
function modelTokens(group: Group, finished: SignalFrame | undefined): number | null {
  const input = finishedNumber(finished, "inputTokens");
  const output = finishedNumber(finished, "outputTokens");
  if (input !== null || output !== null) return (input ?? 0) + (output ?? 0);
  const post = group.signals.find((signal) => pointOf(signal) === "api.post_call");
  return post ? tokenCount(innerPayload(post)) : null;
}

/**
 * Orders bars as a tree reads ({@link compareBars}). Depth by containment: sessions at 0, a
 * branch run at 1, a call inside a run on the same branch at 2, other calls at 1.
 */
function nestBars(bars: TimelineBar[]): void {
  bars.sort(compareBars(new Map(bars.filter((bar) => bar.kind === "session").map((bar) => [bar.sessionId, bar.startMs]))));
  const runs = bars.filter((bar) => bar.kind === "run");
  for (const bar of bars) {
    if (bar.kind === "session") bar.depth = 0;
    else if (bar.kind === "run") bar.depth = 1;
    else {
      const inRun = runs.some(
        (run) => run.sessionId === bar.sessionId && run.branchId === bar.branchId && run.startMs <= bar.startMs && bar.endMs <= run.endMs,
      );
      bar.depth = inRun ? 2 : 1;
    }
  }
  // A call made inside another call sits one level under it.
  const byId = new Map(bars.map((bar) => [bar.id, bar]));
  const depthOf = (bar: TimelineBar, seen: Set<string>): number => {
    const parent = bar.parentId ? byId.get(bar.parentId) : undefined;
    if (!parent || seen.has(parent.id)) return bar.depth;
    seen.add(bar.id);
    return depthOf(parent, seen) + 1;
  };
  for (const bar of bars) if (bar.parentId) bar.depth = depthOf(bar, new Set());
}

/** The hook point of a HookSignal frame, or null. */
function pointOf(signal: SignalFrame): string | null {
  return stringField(signal.payload, "point");
}

/** A HookSignal's own payload (the object its handlers received); the frame's payload for other kinds. */
function innerPayload(signal: SignalFrame): Record<string, unknown> {
  const inner = signal.payload["payload"];
  return typeof inner === "object" && inner !== null && !Array.isArray(inner) ? (inner as Record<string, unknown>) : signal.payload;
}

function stringField(object: Record<string, unknown>, key: string): string | null {
  const value = object[key];
  return typeof value === "string" && value !== "" ? value : null;
}

function numberField(object: Record<string, unknown>, key: string): number | null {
  const value = object[key];
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/** Total tokens as the built-in api.post_call logger reads them: `tokens.total`, or a plain number. */
function tokenCount(payload: Record<string, unknown>): number | null {
  const tokens = payload["tokens"];
  if (typeof tokens === "number") return tokens;
  if (typeof tokens === "object" && tokens !== null) return numberField(tokens as Record<string, unknown>, "total");
  return null;
}
