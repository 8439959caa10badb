import type { JsonObject, JsonValue } from "@hooklens/runtime";

/**
 * Durations as people read them: milliseconds with a precision that suits the size
 * (`0.082 ms`, `4.25 ms`, `37.1 ms`, `1250 ms`), never a float's full tail of digits.
 */
export function formatMs(ms: number): string {
  const size = Math.abs(ms);
  const decimals = size >= 100 ? 0 : size >= 10 ? 1 : size >= 1 ? 2 : 3;
  return `${ms.toFixed(decimals)} ms`;
}

/** A payload field's duration in ms: the tool scope reports `duration` in seconds, others `durationMs`. */
export function durationFieldMs(key: string, value: unknown): number | undefined {
  if (typeof value !== "number" || !Number.isFinite(value)) return undefined;
  if (key === "duration") return value * 1000;
  if (key === "durationMs") return value;
  return undefined;
}

/**
 * A payload for machines that read `show --format json`: every duration becomes `durationMs`,
 * a number rounded to the microsecond, in the place the original field had.
 */
export function durationsInMs(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(durationsInMs);
  if (typeof value !== "object" || value === null) return value;
  const out: JsonObject = {};
  for (const [key, field] of Object.entries(value)) {
    const ms = durationFieldMs(key, field);
    if (ms === undefined) out[key] = durationsInMs(field);
    else out["durationMs"] = Math.round(ms * 1000) / 1000;
  }
  return out;
}

/**
 * Takes the first duration out of a payload (or out of the signal payload nested in it) so a
 * summary line can lead with it; the rest of the payload comes back without that field.
 */
export function takeDurationMs(payload: JsonObject): { ms: number; rest: JsonObject } | undefined {
  for (const [key, field] of Object.entries(payload)) {
    const ms = durationFieldMs(key, field);
    if (ms === undefined) continue;
    const { [key]: _taken, ...rest } = payload;
    return { ms, rest };
  }
  const nested = payload["payload"];
  if (typeof nested !== "object" || nested === null || Array.isArray(nested)) return undefined;
  const inner = takeDurationMs(nested);
  return inner && { ms: inner.ms, rest: { ...payload, payload: inner.rest } };
}

/** A `JSON.stringify` replacer for payloads shown to people: durations become `formatMs` strings. */
export function readableDurations(key: string, value: unknown): unknown {
  const ms = durationFieldMs(key, value);
  return ms === undefined ? value : formatMs(ms);
}
