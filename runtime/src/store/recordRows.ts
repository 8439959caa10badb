import type { JsonObject } from "../session/serialize.js";
import type { RecordedSession, SessionSignalRecord } from "./signalStore.js";

// Both SQL stores name their columns alike; these read one row back into the interface's shapes.

/** A `session_id, kind, op_id, ts, payload` row (payload as JSON text). */
export function recordFromRow(row: Readonly<Record<string, unknown>>): SessionSignalRecord {
  return {
    sessionId: String(row["session_id"]),
    kind: String(row["kind"]),
    opId: String(row["op_id"]),
    ts: Number(row["ts"]),
    payload: JSON.parse(String(row["payload"])) as JsonObject,
  };
}

/** A `session_id, first_ts, last_ts, signal_count` row (PostgreSQL hands the count over as a string). */
export function recordedSessionFromRow(row: Readonly<Record<string, unknown>>): RecordedSession {
  return {
    sessionId: String(row["session_id"]),
    firstTs: Number(row["first_ts"]),
    lastTs: Number(row["last_ts"]),
    signalCount: Number(row["signal_count"]),
  };
}
