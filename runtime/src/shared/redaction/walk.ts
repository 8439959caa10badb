/** What a reference back to an enclosing object becomes. */
export const CIRCULAR_MARK = "[Circular]";
/** What a value nested deeper than the walk's bound becomes. */
export const TOO_DEEP_MARK = "[too deep]";
/** Default nesting bound: deep enough for real payloads, far below the call-stack limit. */
export const DEFAULT_MAX_DEPTH = 200;

/** How one walk treats keys, text and shapes. */
export interface WalkPolicy {
  /** true: produce plain JSON data (Maps become objects, Sets arrays, errors `{name, message}`). */
  readonly json: boolean;
  readonly mask: string;
  readonly maxDepth: number;
  /** Whether the value under `key` is hidden. */
  hides(key: string, value: unknown): boolean;
  /** A string with its secrets masked. */
  text(value: string): string;
}

/**
 * A redacted copy of `value`. Never throws: cycles, throwing getters, exotic objects and any
 * nesting depth get a readable stand-in. An array holding a secret name followed by its value
 * (`["Authorization", "Bearer x"]`, `[["x-api-key", "k"]]`, `["--password", "p"]`) hides the value.
 */
export function walkRedacting(value: unknown, policy: WalkPolicy): unknown {
  try {
    return walk(value, policy, new Set(), 0);
  } catch {
    return policy.mask;
  }
}

function walk(value: unknown, policy: WalkPolicy, ancestors: Set<object>, depth: number): unknown {
  switch (typeof value) {
    case "string":
      return policy.text(value);
    case "number":
    case "boolean":
    case "undefined":
      return value;
    case "bigint":
      return policy.json ? value.toString() : value;
    case "symbol":
      return policy.json ? value.toString() : value;
    case "function":
      return policy.json ? `[Function ${value.name || "anonymous"}]` : value;
  }
  if (value === null) return null;
  const object = value as object;
  if (object instanceof Date) return policy.json ? (Number.isNaN(object.getTime()) ? "Invalid Date" : object.toISOString()) : object;
  if (object instanceof RegExp || object instanceof ArrayBuffer || ArrayBuffer.isView(object)) {
    return policy.json ? `[${object.constructor.name}]` : object;
  }
  if (ancestors.has(object)) return CIRCULAR_MARK;
  if (depth >= policy.maxDepth) return TOO_DEEP_MARK;
  ancestors.add(object);
  try {
    const next = depth + 1;
    if (Array.isArray(object)) return walkList(object, policy, ancestors, next);
    if (object instanceof Set) {
      const items = walkList([...object], policy, ancestors, next);
      return policy.json ? items : new Set(items);
    }
    if (object instanceof Map) return walkMap(object, policy, ancestors, next);
    if (object instanceof Error && policy.json) return walkError(object, policy);
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(object)) {
      const field = read(object, key);
      if (field === undefined && policy.json) continue;
      out[key] = policy.hides(key, field) ? policy.mask : walk(field, policy, ancestors, next);
    }
    return out;
  } finally {
    ancestors.delete(object);
  }
}

/** An array item that may name the value after it (`Authorization`, `--password`, `x-api-key:`). */
export const NAME_LIKE = /^-{0,2}[A-Za-z_][\w.-]{0,63}:?$/;

/** The first item of a two-item array may be any one-line key: a Map entry (`["client secret", "…"]`). */
const PAIR_KEY_LIKE = /^[^\r\n]{1,256}$/;

/** Whether `items[i]` may name the item after it: a name-like string, or the key of a pair. */
export function isNameAt(items: readonly unknown[], i: number): boolean {
  const item = items[i];
  if (typeof item !== "string" || i + 1 >= items.length) return false;
  return NAME_LIKE.test(item) || (i === 0 && items.length === 2 && PAIR_KEY_LIKE.test(item));
}

/** Whether `items[i]` is a secret name, so the item after it is hidden (`["--password", "p"]`). */
export function namesHiddenNext(items: readonly unknown[], i: number, policy: WalkPolicy): boolean {
  return isNameAt(items, i) && policy.hides((items[i] as string).replace(/^-+|:$/g, ""), items[i + 1]);
}

function walkList(items: readonly unknown[], policy: WalkPolicy, ancestors: Set<object>, depth: number): unknown[] {
  const out = new Array<unknown>(items.length);
  for (let i = 0; i < items.length; i++) {
    out[i] = walk(items[i], policy, ancestors, depth);
    if (policy.json && out[i] === undefined) out[i] = null;
    if (namesHiddenNext(items, i, policy)) out[++i] = policy.mask;
  }
  return out;
}

function walkMap(map: Map<unknown, unknown>, policy: WalkPolicy, ancestors: Set<object>, depth: number): unknown {
  const entries: [unknown, unknown][] = [];
  for (const [key, field] of map) {
    const name = typeof key === "string" ? key : String(key);
    entries.push([key, policy.hides(name, field) ? policy.mask : walk(field, policy, ancestors, depth)]);
  }
  if (!policy.json) return new Map(entries);
  const out: Record<string, unknown> = {};
  for (const [key, field] of entries) out[typeof key === "string" ? key : String(key)] = field;
  return out;
}

function walkError(error: Error, policy: WalkPolicy): Record<string, unknown> {
  return {
    name: policy.text(String(error.name)),
    message: policy.text(String(error.message)),
  };
}

function read(object: object, key: string): unknown {
  try {
    return (object as Record<string, unknown>)[key];
  } catch {
    return "[getter threw]";
  }
}
