import type { SignalFrame } from "@hooklens/runtime/live";
import type { SignalEntry } from "./callGroup.js";
import { formatDuration, isoTime } from "./format.js";
import { shortId } from "./signalFacts.js";

/** The URI scheme of the read-only signal documents. */
export const SIGNAL_SCHEME = "hooklens-signal";

/** Where a signal document's signal lives in the store: what its URI's query carries. */
export interface SignalAddress {
  readonly runId: number;
  readonly sessionId: string;
  readonly seq: number;
}

/** `tool.error · refund.json`: what happened and to what; the document's tab title. */
export function signalDocumentTitle(entry: SignalEntry): string {
  const { facts, frame } = entry;
  const subject = facts.toolName ?? facts.model ?? (facts.droppedCount !== null ? `${facts.droppedCount}` : shortId(frame.id.replace(/^#/, "")));
  return `${facts.kindKey} · ${subject}.json`.replace(/[\\/]/g, "_");
}

export function formatSignalQuery(address: SignalAddress): string {
  return new URLSearchParams({ run: String(address.runId), session: address.sessionId, seq: String(address.seq) }).toString();
}

export function parseSignalQuery(query: string): SignalAddress | null {
  const params = new URLSearchParams(query);
  const runId = Number(params.get("run"));
  const seq = Number(params.get("seq"));
  const sessionId = params.get("session");
  if (!Number.isInteger(runId) || !Number.isInteger(seq) || !sessionId) return null;
  return { runId, sessionId, seq };
}

/** Field names whose numbers are POSIX seconds; documents show them as ISO-8601 instants. */
const TIME_FIELDS = new Set(["createdAt", "ts", "firstAt", "lastAt", "startedAt", "firstTs", "lastTs"]);

/** Field names whose numbers are durations, and what one unit of each is in milliseconds. */
const DURATION_FIELDS: ReadonlyMap<string, number> = new Map([
  ["duration", 1000],
  ["durationMs", 1],
]);

/**
 * The document's text: the frame with its words and kind up front, times as ISO-8601 and
 * durations as the tree and timeline write them (`0.021 ms`), nested ones too; pretty-printed JSON.
 * "Copy as JSON" and exports keep the raw frame.
 */
export function signalDocumentText(entry: SignalEntry): string {
  const { frame, facts } = entry;
  const document = {
    summary: facts.label,
    kind: frame.kind,
    ...(facts.kindKey !== frame.kind ? { point: facts.kindKey } : {}),
    time: isoTime(frame.createdAt),
    sessionId: frame.sessionId,
    branchId: frame.branchId ?? facts.branchId,
    id: frame.id,
    payload: readable(frame.payload),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** The frame as the live protocol carries it (what "Copy as JSON" and exports write). */
export function frameJson(frame: SignalFrame, pretty = true): string {
  return JSON.stringify(frame, null, pretty ? 2 : undefined);
}

function readable(value: unknown, key = ""): unknown {
  if (typeof value === "number") {
    if (TIME_FIELDS.has(key) && value > 1e8 && value < 1e11) return isoTime(value);
    const unitMs = DURATION_FIELDS.get(key);
    if (unitMs !== undefined && value >= 0) return formatDuration(value * unitMs);
    return value;
  }
  if (Array.isArray(value)) return value.map((item) => readable(item));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, readable(inner, name)]));
  }
  return value;
}
