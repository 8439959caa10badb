/** Compact JSON of a log line's fields (already JSON data); never throws. */
export function toJsonLine(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "null";
  } catch {
    return '"[unserialisable]"';
  }
}
