import type { SignalFrame } from "@hooklens/runtime/live";
import { formatMs } from "./format.js";
import { compareBars } from "./order.js";
import type { TimelineBar, TimelineLayout, TimelinePhase, TimelineStatus } from "./protocol.js";

/** Signal kinds the runtime records when a call was refused; each carries `toolName`, `callId`, `reason`, `hook`. */
const DENIAL_KINDS: ReadonlySet<string> = new Set(["ToolCallBlocked", "HookShortCircuit", "GuardrailBlock"]);
const TOOL_POINTS: ReadonlySet<string> = new Set(["tool.pre", "tool.post", "tool.error"]);
const MODEL_POINTS: ReadonlySet<string> = new Set(["api.pre_call", "api.stream_chunk", "api.post_call"]);

/** The signals that make one bar, in time order. */
interface Group {
  key: string;
  kind: TimelineBar["kind"];
  sessionId: string;
  branchId: string | null;
  name: string;
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
  const bars = groups.map((group) => barOf(group, toMs));
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

  const groupFor = (key: string, make: () => Omit<Group, "key" | "signals" | "members">): Group => {
    let group = byKey.get(key);
    if (!group) {
      group = { key, signals: [], members: [], ...make() };
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
    depth: 0,
  };
  if (!first || !last) return { ...base, label: group.name, detail: "", startMs: 0, endMs: 0, status: "ok", signalId: "", phases: [], signalCount: 0 };

  const phases = group.signals.map((signal) => phaseOf(signal, toMs));
  let startMs = toMs(first.createdAt);
  const endMs = toMs(last.createdAt);
  // A tool's post/error signal carries how long the call itself ran: the bar covers it even
  // when the pre signal is missing (a session that started recording mid-call).
  for (const signal of group.signals) {
    const seconds = numberField(innerPayload(signal), "duration");
    if (seconds !== null && seconds >= 0) startMs = Math.min(startMs, toMs(signal.createdAt) - seconds * 1000);
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
  if (group.signals.some((signal) => DENIAL_KINDS.has(signal.kind) || signal.kind === "GateDenied")) return "denied";
  if (group.signals.some((signal) => pointOf(signal) === "tool.error" || signal.kind === "RunFailed")) return "error";
  const points = group.signals.map((signal) => pointOf(signal) ?? signal.kind);
  const ended =
    group.kind === "tool" ? points.includes("tool.post")
    : group.kind === "model" ? points.includes("api.post_call")
    : group.kind === "run" ? points.includes("RunEnd")
    : points.includes("session.end");
  return ended ? "ok" : "open";
}

function detailOf(group: Group, status: TimelineStatus, durationMs: number): string {
  const duration = `${formatMs(durationMs)} ms`;
  if (status === "denied") {
    const denial = group.signals.find((signal) => DENIAL_KINDS.has(signal.kind));
    const reason = denial ? stringField(denial.payload, "reason") : null;
    return reason ? `denied: ${reason}` : "denied";
  }
  if (status === "error") {
    const failed = group.signals.find((signal) => pointOf(signal) === "tool.error" || signal.kind === "RunFailed");
    const error = failed ? innerPayload(failed)["error"] ?? failed.payload["data"] : undefined;
    const message = typeof error === "object" && error !== null ? stringField(error as Record<string, unknown>, "message") : null;
    return message ? `${duration} · error: ${message}` : `${duration} · error`;
  }
  if (group.kind === "model") {
    const chunks = group.signals.filter((signal) => pointOf(signal) === "api.stream_chunk").length;
    const post = group.signals.find((signal) => pointOf(signal) === "api.post_call");
    const tokens = post ? tokenCount(innerPayload(post)) : null;
    return [duration, chunks > 0 ? `${chunks} chunks` : "", tokens !== null ? `${tokens} tokens` : ""].filter(Boolean).join(" · ");
  }
  if (group.kind === "session") return `${group.members.length} signals`;
  return status === "open" ? `${duration} · running` : duration;
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
