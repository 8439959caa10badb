/** `Name: message` for an Error, the string form of anything else (for log lines). */
export function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** A short type name for error messages: `null`, `string`, or an object's class name. */
export function typeName(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "object") return (value as { constructor?: { name?: string } }).constructor?.name ?? "object";
  return typeof value;
}
