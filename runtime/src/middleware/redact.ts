/** Key fragments whose values are hidden by default (matched case-insensitively, anywhere in the key). */
export const DEFAULT_REDACT: readonly string[] = Object.freeze(["key", "token", "secret", "password", "authorization", "cookie"]);

/** What a hidden value becomes. */
export const REDACTED = "***";
/** What a reference back to an enclosing object becomes. */
export const CIRCULAR = "[Circular]";

/**
 * A copy of `value` in which the value of every mapping key that contains one of `patterns`
 * (case-insensitive) is replaced by {@link REDACTED}, at any depth: plain objects, class
 * instances (copied as plain objects), Maps, arrays and Sets. A reference to an object that
 * encloses it becomes {@link CIRCULAR}; the same object reached twice side by side is redacted
 * twice. Primitives, Dates and binary data are returned as they are.
 */
export function redact(value: unknown, patterns: readonly string[] = DEFAULT_REDACT): unknown {
  const lowered = patterns.map((p) => p.toLowerCase());
  return walk(value, lowered, new Set());
}

function hides(key: string, patterns: readonly string[]): boolean {
  const lower = key.toLowerCase();
  return patterns.some((p) => lower.includes(p));
}

function walk(value: unknown, patterns: readonly string[], ancestors: Set<object>): unknown {
  if (value === null || typeof value !== "object" || isOpaque(value)) return value;
  if (ancestors.has(value)) return CIRCULAR;
  ancestors.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => walk(item, patterns, ancestors));
    if (value instanceof Set) return new Set([...value].map((item) => walk(item, patterns, ancestors)));
    if (value instanceof Map) {
      const out = new Map<unknown, unknown>();
      for (const [k, v] of value) out.set(k, hides(String(k), patterns) ? REDACTED : walk(v, patterns, ancestors));
      return out;
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = hides(k, patterns) ? REDACTED : walk(v, patterns, ancestors);
    return out;
  } finally {
    ancestors.delete(value);
  }
}

function isOpaque(value: object): boolean {
  return value instanceof Date || value instanceof RegExp || ArrayBuffer.isView(value) || value instanceof ArrayBuffer;
}
