import { namesHiddenNext, type WalkPolicy } from "../shared/redaction/walk.js";

/** What {@link redactedPlainView} returns for a value it does not take. */
export const NOT_PLAIN: unique symbol = Symbol("not plain JSON");

/**
 * `value` redacted by `policy`, for `JSON.stringify`, when it is plain JSON data: plain objects,
 * arrays, strings, finite numbers, booleans and null, nested less than `policy.maxDepth` deep.
 * Nothing is copied that redaction leaves alone: the result is `value` itself, or copies only of
 * the objects and arrays on the way to what changed. Anything else (a Date, a Map, a class
 * instance, NaN, a cycle, a getter that throws) gives {@link NOT_PLAIN}, and the caller takes
 * toJsonSafe's full copy instead. The JSON is the same either way; most payloads are plain, and
 * the full copy was a third of encoding a signal and most of its garbage.
 *
 * JSON.stringify reads the untouched parts again, so a getter is read twice. Never throws.
 */
export function redactedPlainView(value: unknown, policy: WalkPolicy): unknown {
  try {
    return view(value, policy, 0);
  } catch {
    return NOT_PLAIN;
  }
}

/** Thrown from deep inside the walk to give up on the whole value. */
const GIVE_UP = new Error("not plain JSON");

function view(value: unknown, policy: WalkPolicy, depth: number): unknown {
  switch (typeof value) {
    case "string":
      return policy.text(value);
    case "number":
      if (Number.isFinite(value)) return value;
      throw GIVE_UP;
    case "boolean":
      return value;
    case "object":
      break;
    default:
      throw GIVE_UP;
  }
  if (value === null) return null;
  if (depth >= policy.maxDepth) throw GIVE_UP;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto === Array.prototype) return list(value as unknown[], policy, depth + 1);
  if (proto !== Object.prototype && proto !== null) throw GIVE_UP;
  return object(value as Record<string, unknown>, policy, depth + 1);
}

function object(value: Record<string, unknown>, policy: WalkPolicy, depth: number): Record<string, unknown> {
  const keys = Object.keys(value);
  let copy: Record<string, unknown> | null = null;
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k]!;
    const field = value[key];
    // Left out by JSON.stringify and by toJsonSafe alike.
    if (field === undefined) continue;
    // Assigning it to a copy would set the copy's prototype instead.
    if (key === "__proto__") throw GIVE_UP;
    const out = policy.hides(key, field) ? policy.mask : view(field, policy, depth);
    if (out !== field && copy === null) copy = copyOfFirst(value, keys, k);
    if (copy !== null) copy[key] = out;
  }
  return copy ?? value;
}

function copyOfFirst(value: Record<string, unknown>, keys: readonly string[], count: number): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (let j = 0; j < count; j++) {
    const field = value[keys[j]!];
    if (field !== undefined) copy[keys[j]!] = field;
  }
  return copy;
}

function list(items: unknown[], policy: WalkPolicy, depth: number): unknown[] {
  // An own toJSON would make JSON.stringify write something else than was checked.
  if (Object.hasOwn(items, "toJSON")) throw GIVE_UP;
  let copy: unknown[] | null = null;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    // JSON.stringify writes null for a missing item, as toJsonSafe's copy holds.
    const out = item === undefined ? undefined : view(item, policy, depth);
    if (out !== item && copy === null) copy = items.slice(0, i);
    if (copy !== null) copy[i] = out;
    if (namesHiddenNext(items, i, policy)) {
      copy ??= items.slice(0, i + 1);
      copy[++i] = policy.mask;
    }
  }
  return copy ?? items;
}
