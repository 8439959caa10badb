import type { CallGroup, SignalEntry } from "../signals/model/callGroup.js";
import { formatDuration, joinParts } from "../signals/model/format.js";
import { asRecord, numberField, stringField } from "../signals/model/payloadFields.js";
import { SessionModel } from "../signals/model/sessionModel.js";
import { isDenialKind } from "../signals/model/signalFacts.js";
import type { SignalFrame } from "@hooklens/runtime/live";
import { compareBars } from "./order.js";
import type { TimelineBar, TimelineLayout, TimelinePhase, TimelineStatus } from "./protocol.js";

/** The runtime's call signals: they bracket a call (start, end, outcome) rather than mark a hook phase. */
const BRACKETS: ReadonlySet<string> = new Set(["ToolCallStarted", "ToolCallFinished", "ModelCallStarted", "ModelCallFinished", "ModelStreamChunks"]);
const FINISHED_KINDS: ReadonlySet<string> = new Set(["ToolCallFinished", "ModelCallFinished"]);
/** Hook points whose `duration` says how long the call ran before them. */
const TIMED_POINTS: ReadonlySet<string> = new Set(["tool.post", "tool.error"]);

/** What one bar is made of: a call group of the tree's model, a branch run, a lone denial, or a session. */
interface BarSource {
  id: string;
  kind: TimelineBar["kind"];
  sessionId: string;
  branchId: string | null;
  label: string;
  parentId: string | null;
  /** The signals that make the bar (its span, phases and status). */
  entries: SignalEntry[];
  /** The signals it counts (a session counts all of its own; a call those nested in it too). */
  signalCount: number;
  /** A session's bar spans every signal of the session, whichever bar they went to. */
  span: SignalEntry[];
  /** The sequence number of its first signal: the tree's order. */
  order: number;
  /** How long it ran as the tree says it (a call's reported duration); null: the span of its signals. */
  durationMs: number | null;
}

/**
 * Lays out one run as a waterfall from the same grouping the Signals tree shows (one reading of
 * the signals for both views): a bar per session, per tool and model call group (calls made
 * inside another call nest under it), per observed branch run (RunStart → RunEnd/RunFailed)
 * and per denial that names no call; each call with its hook phases. Times are milliseconds
 * from the run's first signal. Pure: the same sessions give the same layout, in any order.
 */
export function layoutSessions(sessions: readonly SessionModel[]): TimelineLayout {
  let startedAt = Infinity;
  let lastAt = -Infinity;
  for (const session of sessions) {
    for (const { frame } of session.entries) {
      if (frame.createdAt < startedAt) startedAt = frame.createdAt;
      if (frame.createdAt > lastAt) lastAt = frame.createdAt;
    }
  }
  if (startedAt === Infinity) return { startedAt: 0, durationMs: 0, bars: [] };
  const toMs = (seconds: number): number => Math.round((seconds - startedAt) * 1_000_000) / 1000;
  const bars = sessions.flatMap((session) => barSources(session)).map((source) => barOf(source, toMs));
  const durationMs = Math.max(toMs(lastAt), ...bars.map((bar) => bar.endMs));
  nestBars(bars);
  return { startedAt, durationMs, bars };
}

/** Groups frames as the Signals view does (one model per session) and lays them out: for callers that hold frames. */
export function layoutTimeline(signals: readonly SignalFrame[]): TimelineLayout {
  const sessions = new Map<string, SessionModel>();
  for (const frame of signals) {
    let session = sessions.get(frame.sessionId);
    if (!session) sessions.set(frame.sessionId, (session = new SessionModel(frame.sessionId)));
    session.add(frame);
  }
  return layoutSessions([...sessions.values()]);
}

function barSources(model: SessionModel): BarSource[] {
  const { sessionId } = model;
  const session: BarSource = { id: `session:${sessionId}`, kind: "session", sessionId, branchId: null, label: `session ${sessionId.slice(0, 8)}`, parentId: null, entries: [], signalCount: model.size, span: model.entries, order: 0, durationMs: null };
  const sources = [session];
  const openRuns = new Map<string | null, BarSource>();
  const addCall = (group: CallGroup): void => {
    const entries = group.members.filter((entry) => !joinedByHeuristic(entry));
    sources.push({
      id: `${group.kind}:${sessionId}:${group.callId}`,
      kind: group.kind,
      sessionId,
      branchId: group.branchId,
      label: group.name,
      parentId: group.parent ? `${group.parent.kind}:${sessionId}:${group.parent.callId}` : null,
      entries,
      signalCount: entries.length,
      span: entries,
      order: group.members[0]?.seq ?? 0,
      durationMs: group.durationMs,
    });
    for (const child of group.children) addCall(child);
  };
  for (const item of model.items) {
    if (!("facts" in item)) {
      addCall(item);
      continue;
    }
    const { facts, frame } = item;
    const lone = (kind: TimelineBar["kind"], label: string): BarSource => {
      const entries = [item];
      return { id: `${kind}:${sessionId}:${frame.id}`, kind, sessionId, branchId: facts.branchId, label, parentId: null, entries, signalCount: 1, span: entries, order: item.seq, durationMs: null };
    };
    if (isDenialKind(facts.kindKey)) {
      // A skipped flow node has no bar kind of its own; its label names it (`flow node support/classify`).
      sources.push(lone(facts.toolName === null ? "model" : "tool", facts.toolName ?? (facts.node !== null ? `flow node ${facts.node}` : "model call")));
    } else if (facts.kindKey === "RunStart") {
      const run = lone("run", facts.branchId ? `run on branch ${facts.branchId.slice(0, 8)}` : "run");
      openRuns.set(facts.branchId, run);
      sources.push(run);
    } else if (facts.kindKey === "RunEnd" || facts.kindKey === "RunFailed") {
      const run = openRuns.get(facts.branchId);
      openRuns.delete(facts.branchId);
      if (run) {
        run.entries.push(item);
        run.signalCount++;
      } else sources.push(lone("run", "run"));
    } else session.entries.push(item);
  }
  return sources;
}

/** An act() record or an action message: the tree shows them in their call, but they are no hook phase of it. */
function joinedByHeuristic(entry: SignalEntry): boolean {
  return entry.facts.toolInstanceId !== null || entry.facts.actionMessage !== null;
}

function barOf(source: BarSource, toMs: (seconds: number) => number): TimelineBar {
  const first = source.span[0];
  const last = source.span[source.span.length - 1];
  const base = { id: source.id, kind: source.kind, sessionId: source.sessionId, branchId: source.branchId, parentId: source.parentId, depth: 0, label: source.label, order: source.order };
  if (!first || !last) return { ...base, detail: "", startMs: 0, endMs: 0, status: "ok", signalId: "", phases: [], signalCount: 0 };

  const phases = source.entries.flatMap((entry) => phasesOf(entry, toMs));
  let startMs = toMs(first.frame.createdAt);
  const endMs = toMs(last.frame.createdAt);
  // A tool's post/error signal and a call's Finished signal say how long the call ran: the bar
  // covers it even when the start is missing (a session that started recording mid-call).
  for (const entry of source.entries) {
    const ms = reportedRunMs(entry);
    if (ms !== null && ms >= 0) startMs = Math.min(startMs, toMs(entry.frame.createdAt) - ms);
  }
  startMs = Math.max(0, Math.round(startMs * 1000) / 1000);
  const status = statusOf(source);
  // A bar opens the signal that says how it ended: the denial, the error, the last one; a session its first.
  const decisive =
    source.entries.find((entry) => isDenialKind(entry.facts.kindKey)) ??
    source.entries.find((entry) => entry.facts.kindKey === "tool.error" || entry.facts.kindKey === "RunFailed") ??
    (source.kind === "session" ? (source.entries[0] ?? first) : last);
  return {
    ...base,
    detail: detailOf(source, status, source.durationMs ?? endMs - startMs),
    startMs,
    endMs: Math.max(endMs, startMs),
    status,
    signalId: decisive.frame.id,
    phases,
    signalCount: source.signalCount,
  };
}

/** How long a call ran before this signal, when the signal says so. */
function reportedRunMs(entry: SignalEntry): number | null {
  const { kindKey, durationMs } = entry.facts;
  return TIMED_POINTS.has(kindKey) || FINISHED_KINDS.has(kindKey) ? durationMs : null;
}

/**
 * The hook phases a signal stands for: itself (a tick, or a segment when it says how long it
 * took), nothing for a call's start/end brackets (they make the bar), the service hooks a model
 * call ran and the span of a batch of stream chunks.
 */
function phasesOf(entry: SignalEntry, toMs: (seconds: number) => number): TimelinePhase[] {
  const { facts, frame } = entry;
  if (facts.kindKey === "ModelStreamChunks") {
    const firstAt = numberField(frame.payload, "firstAt");
    const lastAt = numberField(frame.payload, "lastAt");
    if (firstAt === null || lastAt === null) return [];
    return [{ label: `${facts.chunks ?? 0} chunks`, startMs: Math.max(0, toMs(firstAt)), endMs: Math.max(0, toMs(lastAt)), status: "ok", signalId: frame.id }];
  }
  if (facts.kindKey === "ModelCallFinished") {
    return facts.hookPhases.flatMap((phase) => {
      if (phase.startedAt === null) return [];
      const startMs = Math.max(0, toMs(phase.startedAt));
      return [{ label: phase.hookType, startMs, endMs: startMs + Math.max(0, phase.durationMs ?? 0), status: phase.error !== null ? "error" : "ok", signalId: frame.id }];
    });
  }
  if (BRACKETS.has(facts.kindKey)) return [];
  const atMs = toMs(frame.createdAt);
  const ran = TIMED_POINTS.has(facts.kindKey) ? facts.durationMs : null;
  const startMs = ran !== null && ran >= 0 ? Math.max(0, Math.round((atMs - ran) * 1000) / 1000) : atMs;
  return [{ label: facts.kindKey, startMs, endMs: atMs, status: facts.problem === "denied" ? "denied" : facts.problem === "error" ? "error" : "ok", signalId: frame.id }];
}

function statusOf(source: BarSource): TimelineStatus {
  const kinds = source.entries.map((entry) => entry.facts.kindKey);
  const finished = finishedOf(source);
  // The runtime's own verdict, when the call's Finished signal is there.
  const verdict = finished ? stringField(finished.frame.payload, "status") : null;
  const denied = kinds.some((kind) => isDenialKind(kind) || kind === "GateDenied");
  if (verdict === "denied" || verdict === "skipped") return "denied";
  if (verdict === "error" || verdict === "cancelled") return "error";
  if (verdict === "ok" && !denied) return "ok";
  if (denied) return "denied";
  if (kinds.some((kind) => kind === "tool.error" || kind === "RunFailed")) return "error";
  const ended =
    source.kind === "tool" ? kinds.includes("tool.post") || kinds.includes("ToolCallFinished")
    : source.kind === "model" ? kinds.includes("api.post_call") || kinds.includes("ModelCallFinished")
    : source.kind === "run" ? kinds.includes("RunEnd")
    : kinds.includes("session.end");
  return ended ? "ok" : "open";
}

function finishedOf(source: BarSource): SignalEntry | undefined {
  return source.entries.find((entry) => FINISHED_KINDS.has(entry.facts.kindKey));
}

function detailOf(source: BarSource, status: TimelineStatus, durationMs: number): string {
  const duration = formatDuration(durationMs);
  const finished = finishedOf(source);
  if (status === "denied") {
    const denial = source.entries.find((entry) => isDenialKind(entry.facts.kindKey)) ?? finished;
    const reason = denial ? stringField(denial.frame.payload, "reason") : null;
    return reason ? `denied: ${reason}` : "denied";
  }
  if (status === "error") {
    if (finished && stringField(finished.frame.payload, "status") === "cancelled") return `${duration} · cancelled`;
    const failed = source.entries.find((entry) => entry.facts.kindKey === "tool.error" || entry.facts.kindKey === "RunFailed");
    const inner = failed ? (asRecord(failed.frame.payload["payload"]) ?? failed.frame.payload) : null;
    const error = failed ? (inner?.["error"] ?? failed.frame.payload["data"]) : finished?.frame.payload["error"];
    const message = stringField(asRecord(error), "message");
    return message ? `${duration} · error: ${message}` : `${duration} · error`;
  }
  if (source.kind === "model") {
    const chunks = (finished ? numberField(finished.frame.payload, "chunks") : null) ?? chunkCount(source);
    const tokens = modelTokens(source, finished);
    return joinParts([duration, chunks > 0 ? `${chunks} chunks` : "", tokens !== null ? `${tokens} tokens` : "", status === "open" ? "running" : ""]);
  }
  if (source.kind === "session") return `${source.signalCount} signals`;
  return status === "open" ? `${duration} · running` : duration;
}

/** Chunks seen so far: the runtime's chunk batches, else the api.stream_chunk signals a program emitted. */
function chunkCount(source: BarSource): number {
  let count = 0;
  for (const { facts } of source.entries) {
    if (facts.kindKey === "ModelStreamChunks" || facts.kindKey === "api.stream_chunk") count += facts.chunks ?? 0;
  }
  return count;
}

/** Input plus output tokens from the call's Finished signal, else the total an api.post_call reported. */
function modelTokens(source: BarSource, finished: SignalEntry | undefined): number | null {
  if (finished) {
    const input = numberField(finished.frame.payload, "inputTokens");
    const output = numberField(finished.frame.payload, "outputTokens");
    if (input !== null || output !== null) return (input ?? 0) + (output ?? 0);
  }
  return source.entries.find((entry) => entry.facts.kindKey === "api.post_call")?.facts.tokens ?? null;
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
