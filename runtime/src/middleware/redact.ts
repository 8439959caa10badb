import { requireStrings } from "../shared/arguments.js";
import { REDACTION_MASK, redactionRules } from "../shared/redaction/index.js";
import { CIRCULAR_MARK, DEFAULT_MAX_DEPTH, walkRedacting, type WalkPolicy } from "../shared/redaction/walk.js";

/** Key fragments whose values are hidden by default (matched case-insensitively, anywhere in the key). */
export const DEFAULT_REDACT: readonly string[] = Object.freeze(["key", "token", "secret", "password", "authorization", "cookie"]);

/** What a hidden value becomes: the one marker every way out uses ({@link REDACTION_MASK}, `"[redacted]"`). */
export const REDACTED = REDACTION_MASK;
/** What a reference back to an enclosing object becomes. */
export const CIRCULAR = CIRCULAR_MARK;

/**
 * A copy of `value` in which the value of every mapping key that contains one of `patterns`
 * (case-insensitive) is replaced by {@link REDACTED}, at any depth: plain objects, class
 * instances (copied as plain objects), Maps, arrays and Sets. A reference to an object that
 * encloses it becomes {@link CIRCULAR}; the same object reached twice side by side is redacted
 * twice. Primitives, Dates and binary data are returned as they are, except that text also goes
 * through the shared redaction rules (`Bearer …`, `sk-…` tokens, URL credentials and query
 * tokens). Nesting deeper than 200 levels becomes `"[too deep]"`; it never throws for any `value`
 * (only `patterns` that are not a list of strings are refused).
 */
export function redact(value: unknown, patterns: readonly string[] = DEFAULT_REDACT): unknown {
  return walkRedacting(value, patternPolicy(patterns, false, "redact(value, patterns)"));
}

/**
 * The LoggingHook's walk: the shared rules (key names, header pairs, text shapes) plus the
 * hook's own key `patterns`, as JSON data with {@link REDACTED} for hidden values.
 */
export function redactForLog(value: unknown, patterns: readonly string[]): unknown {
  const matches = patternMatcher(patterns, "redactForLog(value, patterns)");
  return walkRedacting(value, redactionRules().policy({ json: true, mask: REDACTED, extraKeys: matches }));
}

function patternPolicy(patterns: readonly string[], json: boolean, where: string): WalkPolicy {
  const matches = patternMatcher(patterns, where);
  const shared = redactionRules().policy();
  return {
    json,
    mask: REDACTED,
    maxDepth: DEFAULT_MAX_DEPTH,
    hides: matches,
    text: shared.text,
  };
}

const loweredCache = new WeakMap<readonly string[], readonly string[]>();

function patternMatcher(patterns: readonly string[], where: string): (key: string) => boolean {
  let lowered = loweredCache.get(patterns);
  // Checked once per patterns array (then cached): the value itself is never refused.
  if (lowered === undefined) loweredCache.set(patterns, (lowered = requireStrings(patterns, where, "patterns (key fragments)").map((p) => p.toLowerCase())));
  const list = lowered;
  return (key) => {
    const lower = key.toLowerCase();
    for (const p of list) if (lower.includes(p)) return true;
    return false;
  };
}
