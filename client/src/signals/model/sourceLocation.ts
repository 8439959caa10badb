import { asRecord, numberField, stringField, type JsonRecord } from "./payloadFields.js";

/** A place in the user's source a signal points at. */
export interface SourceLocation {
  readonly file: string;
  /** 1-based. */
  readonly line: number;
  /** 1-based; 1 when the signal does not say. */
  readonly column: number;
}

const SOURCE_KEYS = ["source", "location"] as const;

/**
 * A source location a signal carries: a `source` or `location` field (here or in a hook
 * signal's payload) as `{ file, line, column? }` or as `"path:line[:column]"`.
 */
export function sourceOf(payload: JsonRecord): SourceLocation | null {
  // Most signals name no place: leave before anything is allocated.
  if (payload["source"] === undefined && payload["location"] === undefined) return null;
  for (const key of SOURCE_KEYS) {
    const value = payload[key];
    if (typeof value === "string") {
      const match = /^(.+?):(\d+)(?::(\d+))?$/.exec(value);
      if (match) return { file: match[1]!, line: Number(match[2]), column: match[3] ? Number(match[3]) : 1 };
    }
    const record = asRecord(value);
    const file = stringField(record, "file") ?? stringField(record, "path");
    const line = numberField(record, "line");
    if (file && line !== null && line >= 1) return { file, line: Math.floor(line), column: Math.max(1, Math.floor(numberField(record, "column") ?? 1)) };
  }
  return null;
}
