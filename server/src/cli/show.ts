import { redactValue, SIGNALS_DROPPED_KIND, type JsonObject, type JsonValue, type SessionSignalRecord } from "@hooklens/runtime";
import { deniedCallLine, isDeniedCall } from "./deniedLine.js";
import { oneLine } from "./oneLine.js";
import { isSdkBridgeSignal, sdkBridgeLine } from "./sdkCallLine.js";
import { durationsInMs, formatMs, readableDurations, takeDurationMs } from "./durations.js";
import { RecordedDbError, withRecordedDb } from "./recordedDb.js";
import { isoTime, type OutputFormat } from "./sessions.js";

const SUMMARY_CHARS = 120;
const LISTED_SESSIONS = 5;
/** Fields every signal carries; they say nothing about this one. */
const NOISE_FIELDS = new Set(["createdAt", "schemaVersion"]);

/** `hooklens show <sessionId>`: one session's signals in the order they were recorded. */
export async function showCommand(sessionId: string, db: string | undefined, format: OutputFormat): Promise<string> {
  const records = await withRecordedDb(db, async (store) => {
    const found = await store.listSessionSignals(sessionId);
    if (found.length === 0) {
      const known = (await store.listSessions()).map((s) => s.sessionId);
      throw new RecordedDbError(unknownSessionMessage(sessionId, store.name, known));
    }
    // The runtime redacts what it records; recordings from older versions or other writers may not be.
    return found.map((record) => ({ ...record, payload: redactValue(record.payload) as JsonObject }));
  });
  if (format === "text") return formatSignalsText(records);
  return JSON.stringify(records.map((record) => ({ ...record, payload: durationsInMs(record.payload) })), null, 2);
}

/**
 * One line per signal: time (UTC), kind, op id (`-` when none) and a short summary of the payload;
 * a refused call says who refused it and why, and a drop marker how many signals are missing there.
 */
export function formatSignalsText(records: readonly SessionSignalRecord[]): string {
  const kindWidth = Math.max(...records.map((r) => r.kind.length));
  const opWidth = Math.max(1, ...records.map((r) => r.opId.length));
  const lines = records.map((r) => {
    if (r.kind === SIGNALS_DROPPED_KIND) return `${isoTime(r.ts)}  ${droppedLine(r.payload)}`;
    const summary = isDeniedCall(r.kind) ? deniedCallLine(r.kind, r.payload) : isSdkBridgeSignal(r.kind) ? sdkBridgeLine(r.kind, r.payload) : summarizePayload(r.payload);
    return `${isoTime(r.ts)}  ${r.kind.padEnd(kindWidth)}  ${(r.opId || "-").padEnd(opWidth)}  ${summary}`;
  });
  lines.push(`${records.length} signal(s) in session ${records[0]?.sessionId ?? ""}.`);
  return lines.join("\n");
}

/**
 * `key=value` pairs on one line, clipped, led by the signal's duration when it has one (a
 * `tool.post` line is long, and its duration sits at the end); a truncated payload says so.
 */
export function summarizePayload(payload: JsonObject): string {
  if (payload["truncated"] === true) {
    return clip(`truncated (${String(payload["originalBytes"])} bytes): ${oneLine(String(payload["data"] ?? ""))}`);
  }
  const duration = takeDurationMs(payload);
  const parts: string[] = duration ? [formatMs(duration.ms)] : [];
  for (const [key, value] of Object.entries(duration?.rest ?? payload)) {
    if (NOISE_FIELDS.has(key) || isEmptyObject(value)) continue;
    parts.push(`${key}=${showValue(key, value)}`);
  }
  return clip(parts.join(" "));
}

/** A payload field for people: text on one line, durations in ms (also inside nested objects), the rest as JSON. */
function showValue(key: string, value: JsonValue): string {
  if (typeof value === "string") return oneLine(value);
  if (typeof value === "number") return String(readableDurations(key, value));
  return JSON.stringify(value, readableDurations);
}

/** Where the runtime had to drop signals, it wrote a marker: "1,234 signals dropped here (reason)". */
function droppedLine(payload: JsonObject): string {
  const count = Number(payload["count"]);
  const reason = typeof payload["reason"] === "string" && payload["reason"] !== "" ? ` (${oneLine(payload["reason"])})` : "";
  const counted = Number.isFinite(count) ? `${count.toLocaleString("en-US")} ${count === 1 ? "signal" : "signals"}` : "? signals";
  return clip(`${counted} dropped here${reason}`);
}

function unknownSessionMessage(sessionId: string, path: string, known: readonly string[]): string {
  if (known.length === 0) return `no session "${sessionId}" in ${path}: it has no recorded sessions`;
  const listed = known.slice(0, LISTED_SESSIONS).join(", ");
  const more = known.length > LISTED_SESSIONS ? ` (and ${known.length - LISTED_SESSIONS} more; see hooklens sessions)` : "";
  return `no session "${sessionId}" in ${path}; recorded sessions: ${listed}${more}`;
}

function isEmptyObject(value: JsonValue | undefined): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}

function clip(text: string): string {
  return text.length <= SUMMARY_CHARS ? text : `${text.slice(0, SUMMARY_CHARS - 1)}…`;
}
