import type { CallError } from "../signals/callSignals.js";

/**
 * What the bridge reads of a tracing span of `@openai/agents`: only these fields, typed loosely,
 * because a span is the SDK's object and a bridge must not throw on a shape a later version
 * changes. Every read goes through the helpers below.
 */
export interface SpanLike {
  readonly spanId: string;
  readonly traceId: string;
  readonly parentId: string | null;
  readonly spanData: unknown;
  readonly error: { readonly message?: unknown; readonly data?: unknown } | null;
  readonly startedAt: string | null;
  readonly endedAt: string | null;
}

/** A span's `spanData` as a record (the SDK's own `type`, `name`, `input`, … keys). */
export function dataOf(span: SpanLike): Record<string, unknown> {
  const data = span.spanData;
  return typeof data === "object" && data !== null ? (data as Record<string, unknown>) : {};
}

export function text(record: Record<string, unknown> | null | undefined, key: string): string | null {
  const value = record?.[key];
  return typeof value === "string" ? value : null;
}

/** Milliseconds between a span's ISO start and end (0 when either is missing). */
export function spanDurationMs(span: SpanLike): number {
  if (!span.startedAt || !span.endedAt) return 0;
  const ms = Date.parse(span.endedAt) - Date.parse(span.startedAt);
  return Number.isFinite(ms) && ms > 0 ? ms : 0;
}

/** The span's error as a call signal carries it; the SDK's `data.error` (when a string) is the detail. */
export function spanError(span: SpanLike, name: string): CallError | null {
  const error = span.error;
  if (!error) return null;
  const detail = text(error.data as Record<string, unknown> | undefined, "error");
  const message = typeof error.message === "string" ? error.message : "error";
  return { name, message: detail && detail !== message ? `${message}: ${detail}` : message };
}

/**
 * A tool's input as recorded: the SDK hands the model's arguments as a JSON string; parsed, an
 * object's keys go through the runtime's key-based redaction (`password`, `apiKey`, …) like any
 * signal's. Anything else stays the text it was (text redaction still applies).
 */
export function toolArguments(input: unknown): unknown {
  if (typeof input !== "string" || input === "") return null;
  const first = input.charCodeAt(0);
  // `{` or `[`: only JSON objects and arrays are worth parsing.
  if (first !== 123 && first !== 91) return input;
  try {
    return JSON.parse(input) as unknown;
  } catch {
    return input;
  }
}
