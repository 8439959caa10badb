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
  return walk(value, lowered(patterns), false, new Set());
}

/**
 * {@link redact}, producing plain JSON data in the same walk: Maps become objects, Sets arrays,
 * bigints strings. Used for log lines.
 */
export function redactToJson(value: unknown, patterns: readonly string[] = DEFAULT_REDACT): unknown {
  return walk(value, lowered(patterns), true, new Set());
}

const loweredCache = new WeakMap<readonly string[], readonly string[]>();

function lowered(patterns: readonly string[]): readonly string[] {
  let cached = loweredCache.get(patterns);
  if (cached === undefined) loweredCache.set(patterns, (cached = patterns.map((p) => p.toLowerCase())));
  return cached;
}

function hides(key: string, patterns: readonly string[]): boolean {
  const lower = key.toLowerCase();
  for (const p of patterns) if (lower.includes(p)) return true;
  return false;
}

function walk(value: unknown, patterns: readonly string[], json: boolean, ancestors: Set<object>): unknown {
  if (typeof value === "bigint") return json ? value.toString() : value;
  if (value === null || typeof value !== "object" || isOpaque(value)) return value;
  if (ancestors.has(value)) return CIRCULAR;
  ancestors.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => walk(item, patterns, json, ancestors));
    if (value instanceof Set) {
      const items = [...value].map((item) => walk(item, patterns, json, ancestors));
      return json ? items : new Set(items);
    }
    if (value instanceof Map) {
      const entries: [unknown, unknown][] = [];
      for (const [k, v] of value) entries.push([k, hides(String(k), patterns) ? REDACTED : walk(v, patterns, json, ancestors)]);
      return json ? Object.fromEntries(entries.map(([k, v]) => [String(k), v])) : new Map(entries);
    }
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value)) {
      out[k] = hides(k, patterns) ? REDACTED : walk((value as Record<string, unknown>)[k], patterns, json, ancestors);
    }
    return out;
  } finally {
    ancestors.delete(value);
  }
}

function isOpaque(value: object): boolean {
  return value instanceof Date || value instanceof RegExp || ArrayBuffer.isView(value) || value instanceof ArrayBuffer;
}
