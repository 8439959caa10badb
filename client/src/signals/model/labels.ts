import type { LiveRun, LiveSession } from "../signalStore.js";
import { CallGroup, type SignalEntry } from "./callGroup.js";
import { formatCount, formatDuration, formatOffset, isoTime, joinParts } from "./format.js";
import { clip } from "./payloadFields.js";
import { countSignals, type BranchView } from "./branchedRows.js";
import { shortId, type HookPhase } from "./signalFacts.js";

/** `2 errors · 1 denied`: the problem counts every parent row shows (empty when there are none). */
export function problemCounts(errors: number, denials: number): string {
  return joinParts([errors ? formatCount(errors, "error") : "", denials ? `${denials.toLocaleString("en-US")} denied` : ""]);
}

export function runCounts(run: LiveRun): { signals: number; errors: number; denials: number } {
  let signals = 0;
  let errors = 0;
  let denials = 0;
  for (const session of run.sessions.values()) {
    signals += session.model.size + session.evicted;
    errors += session.model.errorRows;
    denials += session.model.deniedRows;
  }
  return { signals, errors, denials };
}

export function runLabel(run: LiveRun): string {
  return run.title || `pid ${run.pid}`;
}

export function runDescription(run: LiveRun): string {
  const counts = runCounts(run);
  const state = run.recordedFrom !== null ? "recorded" : run.connected ? "live" : "ended";
  return joinParts([
    state,
    run.pid ? `pid ${run.pid}` : "",
    formatCount(counts.signals, "signal"),
    problemCounts(counts.errors, counts.denials),
    run.dropped ? `${run.dropped.toLocaleString("en-US")} dropped` : "",
  ]);
}

export function sessionLabel(session: LiveSession): string {
  return `session ${shortId(session.sessionId)}`;
}

export function sessionDescription(session: LiveSession): string {
  const { model } = session;
  return joinParts([
    formatCount(model.size + session.evicted, "signal"),
    session.evicted ? `${session.evicted.toLocaleString("en-US")} evicted` : "",
    problemCounts(model.errorRows, model.deniedRows),
    model.droppedSignals ? `${model.droppedSignals.toLocaleString("en-US")} dropped` : "",
  ]);
}

export function branchLabel(branch: BranchView): string {
  return branch.name ? `branch ${branch.name} (${shortId(branch.branchId)})` : `branch ${shortId(branch.branchId)}`;
}

export function branchDescription(branch: BranchView): string {
  return joinParts([formatCount(branch.signals, "signal"), problemCounts(branch.errors, branch.denials)]);
}

/**
 * A call in words: `searchDocs 12 ms`, `refund — blocked by guard: amount > 100`,
 * `refund — failed: RangeError: …`, `model scripted-model 3 chunks 41 tokens`.
 */
export function callLabel(group: CallGroup): string {
  const denial = group.members.find((entry) => entry.facts.problem === "denied");
  const error = group.members.find((entry) => entry.facts.problem === "error");
  if (denial) {
    const { label, detail } = denial.facts;
    return label.startsWith(`${group.name} — `) ? label : `${group.name} — denied${detail ? `: ${clip(detail)}` : ""}`;
  }
  if (error) return `${group.name} — failed: ${clip(error.facts.detail ?? "error")}`;
  if (group.kind === "model") {
    const chunks = modelChunks(group);
    const tokens = group.members.reduce<number | null>((sum, entry) => (entry.facts.tokens === null ? sum : (sum ?? 0) + entry.facts.tokens), null);
    return joinParts([group.name, chunks ? formatCount(chunks, "chunk") : "", tokens !== null ? formatCount(tokens, "token") : ""], " ");
  }
  const duration = group.durationMs;
  return duration === null ? group.name : `${group.name} ${formatDuration(duration)}`;
}

/** Chunks a model call yielded: what its finish record says, else the sum of its chunk batches. */
function modelChunks(group: CallGroup): number {
  let batches = 0;
  let reported = 0;
  for (const { facts } of group.members) {
    if (facts.kindKey === "ModelStreamChunks" || facts.kindKey === "api.stream_chunk") batches += facts.chunks ?? 0;
    else if (facts.chunks) reported = Math.max(reported, facts.chunks);
  }
  return Math.max(batches, reported);
}

/** `+1,204 ms · 12 ms`: when it happened in its session, and how long it took. */
export function timeDescription(startedAt: number, createdAt: number, durationMs: number | null): string {
  const offset = formatOffset((createdAt - startedAt) * 1000);
  return durationMs === null ? offset : `${offset} · ${formatDuration(durationMs)}`;
}

export function phaseLabel(phase: HookPhase): string {
  return joinParts([phase.hookType.replace(/_/g, " "), phase.status, phase.error ? `: ${clip(phase.error)}` : ""], " ");
}

/** A signal's tooltip: its words, then its key fields. Markdown; values are code spans. */
export function signalTooltip(entry: SignalEntry): string {
  const { facts, frame } = entry;
  const inner = frame.kind === "HookSignal" && typeof frame.payload["payload"] === "object" ? (frame.payload["payload"] as Record<string, unknown>) : frame.payload;
  const rows: Array<[string, unknown]> = [
    ["kind", facts.kindKey === frame.kind ? frame.kind : `${facts.kindKey} (${frame.kind})`],
    ["time", isoTime(frame.createdAt)],
    ["branch", facts.branchId],
    ["tool", facts.toolName],
    ["node", facts.node],
    ["model", facts.model],
    ["call id", facts.call?.callId],
    ["duration", facts.durationMs === null ? null : formatDuration(facts.durationMs)],
    ["hook", facts.hook],
    [facts.problem === "denied" ? "reason" : facts.problem === "error" ? "error" : "detail", facts.detail],
    ["arguments", inner["argsSummary"] ?? inner["arguments"]],
    ["result", inner["resultSummary"] ?? inner["result"]],
    ["tokens", facts.tokens],
    ["chunks", facts.chunks],
    ["source", facts.source ? `${facts.source.file}:${facts.source.line}` : null],
  ];
  return [`**${escapeMarkdown(facts.label)}**`, "", ...fieldLines(rows)].join("\n");
}

export function callTooltip(group: CallGroup): string {
  const rows: Array<[string, unknown]> = [
    ["call id", group.callId],
    ["branch", group.branchId ?? (group.shownBranchId ? `${group.shownBranchId} (the branch of the rows before it)` : null)],
    ["signals", countSignals(group)],
    ["duration", group.durationMs === null ? null : formatDuration(group.durationMs)],
    ["errors", group.errors || null],
    ["denials", group.denials || null],
    ["started", isoTime(group.first.frame.createdAt)],
  ];
  return [`**${escapeMarkdown(callLabel(group))}**`, "", ...fieldLines(rows)].join("\n");
}

function fieldLines(rows: ReadonlyArray<[string, unknown]>): string[] {
  return rows
    .filter(([, value]) => value !== null && value !== undefined && value !== "")
    .map(([name, value]) => `- ${name}: ${codeSpan(typeof value === "string" ? clip(value, 300) : clip(JSON.stringify(value) ?? "", 300))}`);
}

function codeSpan(text: string): string {
  const fence = text.includes("`") ? "``" : "`";
  return `${fence}${fence.length > 1 ? " " : ""}${text}${fence.length > 1 ? " " : ""}${fence}`;
}

function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]<>()#+!|]/g, "\\$&");
}

export function isCall(item: unknown): item is CallGroup {
  return item instanceof CallGroup;
}
