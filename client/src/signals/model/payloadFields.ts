/** Small readers for the JSON payloads signals carry: every field is optional and untrusted. */
export type JsonRecord = Readonly<Record<string, unknown>>;

export function asRecord(value: unknown): JsonRecord | null {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as JsonRecord) : null;
}

export function stringField(record: JsonRecord | null, key: string): string | null {
  const value = record?.[key];
  return typeof value === "string" && value !== "" ? value : null;
}

export function numberField(record: JsonRecord | null, key: string): number | null {
  const value = record?.[key];
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/** An error as the runtime serialises it (`{name, message}`), a string, or anything else made short. */
export function errorText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return value;
  const record = asRecord(value);
  if (record) {
    const name = stringField(record, "name");
    const message = stringField(record, "message");
    if (name && message) return `${name}: ${message}`;
    if (message ?? name) return message ?? name;
  }
  return clip(JSON.stringify(value) ?? String(value), 200);
}

/** Text cut to `max` characters with an ellipsis, on one line. */
export function clip(text: string, max = 80): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}
