import { redactionRules } from "../shared/redaction/index.js";
import { MessageAdded, type Signal } from "./signal.js";
import { NOT_PLAIN, redactedPlainView } from "./plainJson.js";

/** The byte cap of a persisted or streamed signal payload. */
export const PAYLOAD_BYTE_CAP = 16_384;
/** Longest string kept for a value that JSON cannot express. */
const FALLBACK_CHARS = 2_048;
const MAX_CLIP_TRIES = 8;

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** The object that replaces a payload over the cap: `data` is the clipped compact JSON. */
export interface TruncatedPayload {
  truncated: true;
  originalBytes: number;
  data: string;
}

const OMITTED_FIELDS = new Set(["id", "data", "emitterRole"]);
const MESSAGE_REF_FIELDS = ["id", "role", "sender", "recipient"] as const;
const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: false });

/**
 * The JSON-safe form of a signal for persistence and the live stream: every own field except
 * `id`, `data` and `emitterRole`, skipping null/undefined/"" values; `data` made JSON-safe; a
 * MessageAdded carries only a reference to its message, never the body. Over
 * {@link PAYLOAD_BYTE_CAP} bytes the result is the bounded {@link TruncatedPayload}.
 */
export function sanitizeSignalPayload(signal: Signal): JsonObject {
  return encodeSignalPayload(signal).payload;
}

/**
 * {@link sanitizeSignalPayload} together with its compact JSON text, both from one serialisation.
 * Secrets are redacted with the shared rules before the byte cap cuts anything, so every sink
 * (databases, live stream, OpenTelemetry) receives the same redacted bytes.
 * Never throws: a signal that cannot be read at all becomes `{ sanitizeError }`.
 */
export function encodeSignalPayload(signal: Signal): { payload: JsonObject; json: string } {
  const { payload, json } = encodeSignalJson(signal);
  return { payload: payload ?? (JSON.parse(json) as JsonObject), json };
}

/**
 * {@link encodeSignalPayload}'s JSON text, and its object form only when one was built anyway:
 * a plain payload is encoded straight from the signal's own values, with copies only of what
 * redaction changes; its object form, when a sink wants one, is then parsed back from the text,
 * so it is never the caller's objects either.
 */
export function encodeSignalJson(signal: Signal): { payload: JsonObject | null; json: string } {
  const rules = redactionRules();
  try {
    const view = redactedPlainView(ownFields(signal), rules.policy());
    if (view !== NOT_PLAIN) {
      const json = JSON.stringify(view);
      const capped = capJson(view as JsonObject, json);
      return { payload: capped.json === json ? null : capped.payload, json: capped.json };
    }
  } catch {
    // Read again below, where every failure has its own stand-in.
  }
  let raw: JsonObject;
  try {
    raw = rawPayload(signal);
  } catch (error) {
    raw = { sanitizeError: clip(`[unserialisable signal: ${error instanceof Error ? error.message : String(error)}]`) };
  }
  // `raw` is a fresh tree from toJsonSafe, owned here: redacted in place rather than copied.
  raw = rules.redactOwnedJson(raw) as JsonObject;
  return capJson(raw, JSON.stringify(raw));
}

/** The payload's fields as the signal holds them (nothing copied), in the order rawPayload writes them. */
function ownFields(signal: Signal): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const fields = signal as unknown as Record<string, unknown>;
  for (const key of Object.keys(signal)) {
    const value = fields[key];
    if (value === null || value === undefined || value === "" || OMITTED_FIELDS.has(key)) continue;
    out[key] = value;
  }
  if (signal.data !== null && signal.data !== undefined) {
    if (signal instanceof MessageAdded) out["messageRef"] = messageRef(signal.data);
    else out["data"] = signal.data;
  }
  return out;
}

/** The payload's fields as toJsonSafe's fresh copy. */
function rawPayload(signal: Signal): JsonObject {
  const raw: JsonObject = {};
  // One `seen` set for the whole signal (each field's walk leaves it empty again).
  const seen = new Set<object>();
  const fields = ownFields(signal);
  for (const key of Object.keys(fields)) raw[key] = toJsonSafe(fields[key], seen);
  return raw;
}

/** Applies the byte cap to an already JSON-safe object. */
export function capPayload(payload: JsonObject, cap = PAYLOAD_BYTE_CAP): JsonObject {
  return capJson(payload, JSON.stringify(payload), cap).payload;
}

function capJson(payload: JsonObject, json: string, cap = PAYLOAD_BYTE_CAP): { payload: JsonObject; json: string } {
  // A UTF-16 unit is at most 3 UTF-8 bytes: short text needs no byte count.
  if (json.length * 3 <= cap) return { payload, json };
  const bytes = encoder.encode(json);
  if (bytes.length <= cap) return { payload, json };
  const originalBytes = bytes.length;
  const overhead = byteLength(JSON.stringify(bounded(originalBytes, "")));
  let clipLength = cap - overhead;
  for (let attempt = 0; attempt < MAX_CLIP_TRIES && clipLength > 0; attempt++) {
    // A multibyte character split by the cut decodes to U+FFFD; the JSON escaping of the
    // clipped text can still overshoot, so shrink by the overshoot and retry.
    const candidate = bounded(originalBytes, decoder.decode(bytes.subarray(0, clipLength)));
    const text = JSON.stringify(candidate);
    const size = byteLength(text);
    if (size <= cap) return { payload: candidate as unknown as JsonObject, json: text };
    clipLength -= size - cap;
  }
  const empty = bounded(originalBytes, "");
  return { payload: empty as unknown as JsonObject, json: JSON.stringify(empty) };
}

function bounded(originalBytes: number, data: string): TruncatedPayload {
  return { truncated: true, originalBytes, data };
}

function byteLength(text: string): number {
  return encoder.encode(text).length;
}

function messageRef(message: unknown): JsonObject {
  const ref: JsonObject = {};
  if (message === null || typeof message !== "object") return ref;
  for (const field of MESSAGE_REF_FIELDS) {
    const value = (message as Record<string, unknown>)[field];
    if (value !== null && value !== undefined) ref[field] = String(value);
  }
  return ref;
}

/**
 * Converts any value to JSON: errors become `{name, message}`, bigints and symbols strings,
 * functions `[Function name]`, cycles `[Circular]`, Maps and Sets arrays; anything JSON cannot
 * hold becomes a string clipped to 2,048 characters. Getters that throw are reported, not raised.
 * Always a fresh tree, never the caller's objects: the encode step redacts it in place.
 */
export function toJsonSafe(value: unknown, seen: Set<object> = new Set()): JsonValue {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      return Number.isFinite(value) ? value : String(value);
    case "bigint":
    case "symbol":
      return value.toString();
    case "undefined":
      return null;
    case "function":
      return `[Function ${value.name || "anonymous"}]`;
  }
  if (value === null) return null;
  const object = value as object;
  if (seen.has(object)) return "[Circular]";
  seen.add(object);
  try {
    if (Array.isArray(object)) return object.map((item) => toJsonSafe(item, seen));
    // Most values are plain objects: only other prototypes need the special cases.
    const proto: unknown = Object.getPrototypeOf(object);
    if (proto !== Object.prototype && proto !== null) {
      if (object instanceof Error) return { name: object.name, message: object.message };
      if (object instanceof Date) return Number.isNaN(object.getTime()) ? "Invalid Date" : object.toISOString();
      if (object instanceof Map) return [...object.entries()].map(([k, v]) => [toJsonSafe(k, seen), toJsonSafe(v, seen)]);
      if (object instanceof Set) return [...object].map((item) => toJsonSafe(item, seen));
      if (ArrayBuffer.isView(object)) return clip(`[${object.constructor.name} ${object.byteLength} bytes]`);
    }
    const out: JsonObject = {};
    for (const key of Object.keys(object)) {
      let field: unknown;
      try {
        field = (object as Record<string, unknown>)[key];
      } catch (error) {
        field = `[getter threw: ${error instanceof Error ? error.message : String(error)}]`;
      }
      if (field === undefined) continue;
      out[key] = toJsonSafe(field, seen);
    }
    return out;
  } catch (error) {
    return clip(`[unserialisable: ${error instanceof Error ? error.message : String(error)}]`);
  } finally {
    seen.delete(object);
  }
}

function clip(text: string): string {
  return text.length > FALLBACK_CHARS ? text.slice(0, FALLBACK_CHARS) : text;
}
