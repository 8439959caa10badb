import type { EncodedSignal } from "../session/pipeline/encodedSignal.js";
import { redactionRules } from "../shared/redaction/settings.js";
import { REDACTION_MASK } from "../shared/redaction/textRules.js";

/** A signal's fields as the trace reads them (the signal's own properties, or a stored payload). */
export type Fields = Readonly<Record<string, unknown>>;

/** Longest exported text of one field (a reason, an error message); longer text is cut and marked. */
export const MAX_TEXT_CHARS = 8_192;
/** A key strength of the shared rules that hides any value, numbers included (`password`). */
const HIDES_ANY_VALUE = 2;

/**
 * What the trace reads a signal from: the signal itself, so nothing is serialised for the export
 * and a call whose encoded payload the byte cap replaced still has its ids. A signal read back
 * from a store has no object: its (already redacted) payload is read instead.
 */
export function fieldsOf(signal: EncodedSignal): Fields {
  return (signal.signal as unknown as Fields | undefined) ?? signal.payload;
}

/** A nested object of a signal (a hook payload, an action, an error), or null. */
export function objectOf(value: unknown): Fields | null {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Fields) : null;
}

/** A non-empty string as it is, for matching ids with each other; never exported as it is. */
export function idOf(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

/** A finite number, or undefined. */
export function countOf(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/**
 * `fields[key]` as exported text: null unless it is a non-empty string; otherwise redacted by the
 * shared rules exactly as an encoded payload would be (the whole value when the key names a
 * secret, secret-shaped text within it otherwise), then cut to {@link MAX_TEXT_CHARS}.
 */
export function textOf(fields: Fields | null, key: string): string | null {
  const value = fields?.[key];
  return typeof value === "string" && value !== "" ? exportedText(key, value) : null;
}

/**
 * `value`, found under `key`, redacted for export (see {@link textOf}). Ids and other short
 * texts are scanned each time; the rules remember only longer texts that repeat.
 */
export function exportedText(key: string, value: string): string {
  const rules = redactionRules();
  const shown = !rules.enabled ? value : rules.isSecretKey(key) ? REDACTION_MASK : rules.redactText(value);
  return shown.length > MAX_TEXT_CHARS ? `${shown.slice(0, MAX_TEXT_CHARS)}…[cut]` : shown;
}

/** A primitive under a caller-chosen key (a run event's payload) as an attribute value, redacted; undefined for anything else. */
export function exportedPrimitive(key: string, value: unknown): string | number | boolean | undefined {
  if (typeof value === "string") return exportedText(key, value);
  if (typeof value !== "number" && typeof value !== "boolean") return undefined;
  const rules = redactionRules();
  if (rules.enabled && rules.strengthOf(key) === HIDES_ANY_VALUE) return REDACTION_MASK;
  return typeof value === "number" && !Number.isFinite(value) ? String(value) : value;
}

/**
 * `{ name, message }` of an error as signals carry it (a CallError, an Error, its encoded
 * `{ name, message }`, or a plain string), redacted for export.
 */
export function errorOf(value: unknown): { name: string; message: string } | null {
  if (typeof value === "string") return { name: "Error", message: exportedText("message", value) };
  const error = objectOf(value);
  if (!error) return null;
  return { name: textOf(error, "name") ?? textOf(error, "error") ?? "Error", message: textOf(error, "message") ?? "" };
}
