/** The SQL a PostgreSQL signal store runs, and the conversions between its rows and records. */
import { createHash } from "node:crypto";
import type { JsonObject } from "../../session/serialize.js";
import type { QuotedNames } from "./postgresSchema.js";
import type { SignalRow } from "../signalRow.js";

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

/** A statement pg prepares once per connection, under its name, and runs again with new values. */
export interface NamedStatement {
  readonly name: string;
  readonly text: string;
}

/**
 * The one INSERT a store runs for every batch, whatever its size: the batch travels as five
 * arrays (one per column) that `unnest` turns back into rows, numbered so the ids follow the
 * batch's order. Its text never changes, so each connection prepares it once and reuses it (a
 * multi-row VALUES list had a new text, and a new parse and plan, for every batch size).
 */
export function insertStatement(names: QuotedNames): NamedStatement {
  const text =
    `INSERT INTO ${names.table} (session_id, kind, op_id, ts, payload) ` +
    "SELECT session_id, kind, op_id, ts, payload::jsonb " +
    "FROM unnest($1::text[], $2::text[], $3::text[], $4::float8[], $5::text[]) WITH ORDINALITY AS batch(session_id, kind, op_id, ts, payload, n) ORDER BY n";
  // Named by its text: a store on another table in the same pool must not reuse this one.
  return { name: `hooklens_insert_${createHash("sha256").update(text).digest("hex").slice(0, 16)}`, text };
}

/** The values of {@link insertStatement} for `batch`: one array per column, rows in order. */
export function insertValues(batch: readonly SignalRow[]): unknown[] {
  const sessionIds: string[] = [];
  const kinds: string[] = [];
  const opIds: string[] = [];
  const times: number[] = [];
  const payloads: string[] = [];
  for (const row of batch) {
    sessionIds.push(storableText(row.sessionId));
    kinds.push(storableText(row.kind));
    opIds.push(storableText(row.opId));
    times.push(row.ts);
    payloads.push(jsonbText(row.payloadJson));
  }
  return [sessionIds, kinds, opIds, times, payloads];
}

/** Payload read as text and parsed here, so a program's own pg type parsers cannot change what comes back. */
export function selectSessionStatement(names: QuotedNames): string {
  return `SELECT session_id, kind, op_id, ts, payload::text AS payload FROM ${names.table} WHERE session_id = $1 ORDER BY id`;
}

export function selectSessionsStatement(names: QuotedNames): string {
  return `SELECT session_id, min(ts) AS first_ts, max(ts) AS last_ts, count(*) AS signal_count
  FROM ${names.table} GROUP BY session_id ORDER BY min(id)`;
}
