import { namesHiddenNext, TOO_DEEP_MARK, type WalkPolicy } from "./walk.js";

/**
 * Redacts plain JSON data in place and returns it (or the string or marker that replaces it):
 * the same result {@link walkRedacting} gives for JSON data, without copying anything that does
 * not change. Only for data the caller just built and owns, such as a signal's payload fresh out
 * of `toJsonSafe` — a tree of plain objects, arrays and primitives with no cycles. Never throws.
 */
export function redactJsonInPlace(value: unknown, policy: WalkPolicy): unknown {
  try {
    return visit(value, policy, 0);
  } catch {
    return policy.mask;
  }
}

function visit(value: unknown, policy: WalkPolicy, depth: number): unknown {
  if (typeof value === "string") return policy.text(value);
  if (value === null || typeof value !== "object") return value;
  if (depth >= policy.maxDepth) return TOO_DEEP_MARK;
  const next = depth + 1;
  if (Array.isArray(value)) {
    visitList(value, policy, next);
    return value;
  }
  const object = value as Record<string, unknown>;
  for (const key of Object.keys(object)) {
    const field = object[key];
    if (policy.hides(key, field)) object[key] = policy.mask;
    // Numbers, booleans and null hold no secret: only text and containers are visited.
    else if (typeof field === "string" || (typeof field === "object" && field !== null)) {
      const out = visit(field, policy, next);
      if (out !== field) object[key] = out;
    }
  }
  return object;
}

/** An array holding a secret name followed by its value (`["Authorization", "Bearer x"]`) hides the value. */
function visitList(items: unknown[], policy: WalkPolicy, depth: number): void {
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const hideNext = namesHiddenNext(items, i, policy); // judged before the item itself is rewritten
    if (typeof item === "string" || (typeof item === "object" && item !== null)) {
      const out = visit(item, policy, depth);
      if (out !== item) items[i] = out;
    }
    if (hideNext) items[++i] = policy.mask;
  }
}
