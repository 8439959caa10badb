import { describeValue, requireName, requireObject, requireString } from "../shared/arguments.js";
import { InvalidValueError } from "../shared/errors.js";
import { redactValue } from "../shared/redaction/index.js";
import type { EncodedSignal } from "../session/pipeline/encodedSignal.js";
import type { SessionSignalRecord } from "./signalStore.js";

/** One row as the SQL stores write it: the payload already JSON text, serialised once upstream. */
export interface SignalRow {
  readonly sessionId: string;
  readonly kind: string;
  readonly opId: string;
  readonly ts: number;
  readonly payloadJson: string;
  /** Set on a `SignalsDropped` marker: how many signals it stands for. */
  readonly droppedCount?: number;
}

/** The kind of the marker row a store writes where it had to drop signals; its payload is `{ count }`. */
export const SIGNALS_DROPPED_KIND = "SignalsDropped";

/** Rough bytes a queued row holds in memory (JS strings are UTF-16), for the pending-work bound. */
export function rowBytes(row: SignalRow): number {
  return 2 * (row.payloadJson.length + row.sessionId.length + row.kind.length + row.opId.length) + 64;
}

export function rowFromEncoded(sessionId: string, signal: EncodedSignal): SignalRow {
  return { sessionId, kind: signal.kind, opId: signal.opId, ts: signal.ts, payloadJson: signal.payloadJson };
}

const INSERT = "SignalStore.insertSessionSignal(record)";

/**
 * A record handed to `insertSessionSignal` directly (not through the signal pipeline) is checked
 * and redacted here: a wrong record fails in the caller's hands, not later in a background write.
 */
export function rowFromRecord(record: SessionSignalRecord): SignalRow {
  requireObject(record, INSERT, "record ({ sessionId, kind, opId, ts, payload })");
  requireName(record.sessionId, INSERT, "record.sessionId");
  requireString(record.kind, INSERT, "record.kind");
  if (typeof record.ts !== "number" || !Number.isFinite(record.ts)) throw new InvalidValueError(`${INSERT}: record.ts must be a finite number (POSIX seconds), got ${describeValue(record.ts)}`);
  return { sessionId: record.sessionId, kind: record.kind, opId: record.opId, ts: record.ts, payloadJson: JSON.stringify(redactValue(record.payload)) };
}

/** The marker saying `count` signals of a session were dropped at this point of its record. */
export function droppedMarkerRow(sessionId: string, count: number, reason: string): SignalRow {
  return { sessionId, kind: SIGNALS_DROPPED_KIND, opId: "", ts: Date.now() / 1000, payloadJson: JSON.stringify({ count, reason }), droppedCount: count };
}
