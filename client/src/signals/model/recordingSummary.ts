import { formatCount, formatDuration, joinParts } from "./format.js";
import { asRecord, clip, numberField, stringField } from "./payloadFields.js";
import type { SessionModel } from "./sessionModel.js";
import { shortId } from "./signalFacts.js";

/** What the recordings picker says about one recorded session, read from its signals. */
export interface RecordingSummary {
  readonly sessionId: string;
  /** The program that ran it (the runtime names it on `session.start`), else the agent's name, else null. */
  readonly program: string | null;
  /** `completed`, `failed: …`, the status its `session.end` reported, or `no end recorded`. */
  readonly status: string;
  readonly failed: boolean;
  /** POSIX seconds of its first signal. */
  readonly startedAt: number | null;
  /** What `session.end` reported, else the time its signals span. */
  readonly durationMs: number | null;
  readonly toolCalls: number;
  /** Rows holding an error / a denial, as the tree counts them. */
  readonly errors: number;
  readonly denials: number;
  readonly signals: number;
}

/**
 * Summarises a session from the same grouping the tree shows (calls counted by call id, errors
 * as the tree's badges count them), so the picker and the view never disagree.
 */
export function summarizeSession(model: SessionModel): RecordingSummary {
  let program: string | null = null;
  let agent: string | null = null;
  let end: { status: string | null; durationMs: number | null; failed: boolean; detail: string | null } | null = null;
  for (const { facts, frame } of model.entries) {
    if (facts.kindKey === "session.start" && program === null) {
      program = stringField(asRecord(frame.payload["metadata"]), "program");
      agent ??= stringField(asRecord(frame.payload["payload"]), "agentName");
    } else if (facts.kindKey === "session.end") {
      const inner = asRecord(frame.payload["payload"]);
      end = { status: stringField(inner, "status"), durationMs: numberField(inner, "durationMs"), failed: facts.problem === "error", detail: facts.detail };
    }
  }
  const first = model.entries[0]?.frame.createdAt ?? null;
  const last = model.entries[model.entries.length - 1]?.frame.createdAt ?? null;
  const span = first !== null && last !== null ? (last - first) * 1000 : null;
  const status = end === null ? "no end recorded" : end.failed ? `failed${end.detail && end.detail !== end.status ? `: ${clip(end.detail, 60)}` : ""}` : (end.status ?? "ended");
  return {
    sessionId: model.sessionId,
    program: program ?? (agent ? `agent ${agent}` : null),
    status,
    failed: end?.failed ?? false,
    startedAt: first,
    durationMs: end?.durationMs ?? span,
    toolCalls: model.toolCalls,
    errors: model.errorRows,
    denials: model.deniedRows,
    signals: model.size,
  };
}

/** A picker row's text: which program, which session and how it ended; when, how long, what it did. */
export interface RecordingRowText {
  readonly label: string;
  readonly description: string;
  readonly detail: string;
}

/** `live` when the session is also a program run the view shows (picking it shows that run, not a copy). */
export function recordingRowText(summary: RecordingSummary, live: "connected" | "ended" | null = null): RecordingRowText {
  return {
    label: summary.program ?? "unknown program",
    description: joinParts([`session ${shortId(summary.sessionId)}`, summary.status, live === "connected" ? "live now" : live === "ended" ? "shown as its program run" : ""]),
    detail: joinParts([
      summary.startedAt === null ? "" : new Date(summary.startedAt * 1000).toLocaleString(),
      summary.durationMs === null ? "" : formatDuration(summary.durationMs),
      formatCount(summary.toolCalls, "tool call"),
      formatCount(summary.errors, "error"),
      summary.denials ? `${summary.denials.toLocaleString("en-US")} denied` : "",
      formatCount(summary.signals, "signal"),
    ]),
  };
}
