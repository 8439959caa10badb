import { redactValue, type EncodedSignal, type JsonObject, type JsonValue } from "../index.js";

/** Content fields a span only carries with captureContent, and then cut anyway. */
const CONTENT_FIELDS = new Set(["arguments", "result", "request", "response", "metadata", "emitterRole"]);
/** Longer strings are contents, not the ids, names and reasons spans are built from. */
const MAX_TEXT = 1_024;
const MAX_DEPTH = 3;

/**
 * The payload spans are built from. Usually the encoded one; when the byte cap replaced it
 * (`{ truncated, originalBytes, data }`: a call with 20 KiB of arguments), the call's ids, names,
 * statuses and errors are read from the signal itself, leaving contents and long text out, and
 * redacted by the shared rules like every payload. Without this such a call had no span at all.
 */
export function tracedPayload(signal: EncodedSignal): JsonObject {
  const payload = signal.payload;
  if (payload["truncated"] !== true || signal.signal === undefined) return payload;
  const out: JsonObject = {};
  const raw = signal.signal as unknown as Record<string, unknown>;
  for (const key of Object.keys(raw)) {
    if (CONTENT_FIELDS.has(key)) continue;
    const value = compact(raw[key], 0);
    if (value !== undefined) out[key] = value;
  }
  return redactValue(out) as JsonObject;
}

function compact(value: unknown, depth: number): JsonValue | undefined {
  if (value === null || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value === "string") return value.length <= MAX_TEXT ? value : undefined;
  if (typeof value !== "object" || depth >= MAX_DEPTH) return undefined;
  if (value instanceof Error) return { name: value.name, message: value.message.slice(0, MAX_TEXT) };
  if (Array.isArray(value)) return value.slice(0, 256).map((item) => compact(item, depth + 1) ?? null);
  const out: JsonObject = {};
  for (const [key, item] of Object.entries(value)) {
    if (CONTENT_FIELDS.has(key)) continue;
    const kept = compact(item, depth + 1);
    if (kept !== undefined) out[key] = kept;
  }
  return out;
}
