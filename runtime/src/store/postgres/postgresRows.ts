/** The SQL a PostgreSQL signal store runs, and the conversions between its rows and records. */
import type { JsonObject } from "../../session/serialize.js";
import type { QuotedNames } from "./postgresSchema.js";
import type { SignalRow } from "../signalRow.js";

const COLUMNS_PER_ROW = 5;

/**
 * JSON escapes jsonb refuses: `\u0000` and a lone UTF-16 surrogate half, both of which
 * JSON.stringify writes as escapes. The lookbehind skips an escaped backslash followed by "u0000".
 */
const UNSTORABLE_ESCAPE = /(?<=(?:^|[^\\])(?:\\\\)*)\\u(?:0000|d[89a-f][0-9a-f]{2})/g;

/** The payload as JSON text jsonb accepts: characters it cannot hold become U+FFFD, as a cut character does. */
export function jsonbText(payload: JsonObject | string): string {
  const json = typeof payload === "string" ? payload : JSON.stringify(payload);
  return json.includes("\\u") ? json.replace(UNSTORABLE_ESCAPE, "\\ufffd") : json;
}

/** PostgreSQL text cannot hold NUL either. */
function storableText(text: string): string {
  return text.includes("\0") ? text.replaceAll("\0", "\uFFFD") : text;
}

/** One multi-row INSERT for a whole batch: a single round trip, rows numbered in the order given. */
export function insertStatement(names: QuotedNames, batch: readonly SignalRow[]): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const tuples = batch.map((record, row) => {
    values.push(storableText(record.sessionId), storableText(record.kind), storableText(record.opId), record.ts, jsonbText(record.payloadJson));
    const at = row * COLUMNS_PER_ROW;
    return `($${at + 1}, $${at + 2}, $${at + 3}, $${at + 4}, $${at + 5}::jsonb)`;
  });
  return { text: `INSERT INTO ${names.table} (session_id, kind, op_id, ts, payload) VALUES ${tuples.join(", ")}`, values };
}

/** Payload read as text and parsed here, so a program's own pg type parsers cannot change what comes back. */
export function selectSessionStatement(names: QuotedNames): string {
  return `SELECT session_id, kind, op_id, ts, payload::text AS payload FROM ${names.table} WHERE session_id = $1 ORDER BY id`;
}

export function selectSessionsStatement(names: QuotedNames): string {
  return `SELECT session_id, min(ts) AS first_ts, max(ts) AS last_ts, count(*) AS signal_count
  FROM ${names.table} GROUP BY session_id ORDER BY min(id)`;
}
