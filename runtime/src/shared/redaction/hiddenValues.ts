import { DEFAULT_MAX_DEPTH, isNameAt } from "./walk.js";
import type { RedactionRules } from "./rules.js";

const MAX_COLLECTED = 256;

/**
 * The strings in `value` that the rules hide by key (under a secret key name, or after a secret
 * name in an array), for callers that send `value` somewhere that may echo it back in another
 * shape — an endpoint's request body quoted in a server's error — and must mask it there as
 * literal text. At most 256 strings; never throws.
 */
export function hiddenStringsOf(value: unknown, rules: RedactionRules): string[] {
  const found = new Set<string>();
  try {
    visit(value, rules, false, found, new Set(), 0);
  } catch {
    // What was found so far still helps; a hostile value must not fail the caller.
  }
  return [...found];
}

function visit(value: unknown, rules: RedactionRules, hidden: boolean, found: Set<string>, ancestors: Set<object>, depth: number): void {
  if (found.size >= MAX_COLLECTED) return;
  if (typeof value === "string") {
    if (hidden && value.trim().length >= 4) found.add(value);
    return;
  }
  if (value === null || typeof value !== "object" || ancestors.has(value) || depth >= DEFAULT_MAX_DEPTH) return;
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      let hideNext = false;
      for (let i = 0; i < value.length; i++) {
        visit(value[i], rules, hidden || hideNext, found, ancestors, depth + 1);
        hideNext = isNameAt(value, i) && rules.isSecretKey((value[i] as string).replace(/^-+|:$/g, ""));
      }
      return;
    }
    const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
    for (const [key, field] of entries) visit(field, rules, hidden || rules.isSecretKey(String(key)), found, ancestors, depth + 1);
  } finally {
    ancestors.delete(value);
  }
}
