/** Compact JSON that never throws: bigints become strings, Maps objects, Sets arrays. */
export function toJsonLine(value: unknown): string {
  try {
    return JSON.stringify(value, (_key, v: unknown) => jsonSafe(v)) ?? "null";
  } catch {
    return '"[unserialisable]"';
  }
}

function jsonSafe(v: unknown): unknown {
  if (typeof v === "bigint") return v.toString();
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, item]) => [String(k), item]));
  if (v instanceof Set) return [...v];
  return v;
}
