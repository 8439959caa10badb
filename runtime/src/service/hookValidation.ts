import { requireString } from "../shared/arguments.js";
import { HookValidationError } from "./errors.js";
import { ALLOWED_HOOKS_TYPES, HookEventTypes, type ChunkClass, type HookKey } from "./hookTypes.js";

const ALIASES: Readonly<Record<string, HookEventTypes>> = {
  pre_invoke: HookEventTypes.PreInvocation,
  post_invoke: HookEventTypes.PostInvocation,
  pre_event_create: HookEventTypes.PreEventCreate,
  pre_event_create_hook: HookEventTypes.PreEventCreate,
};
const PHASES: ReadonlySet<string> = new Set(ALLOWED_HOOKS_TYPES);
const ACCEPTED = `${ALLOWED_HOOKS_TYPES.join(", ")} (aliases: pre_event_create_hook, pre_invoke, post_invoke)`;

/** Maps an alias to its phase; any other key comes back unchanged (and then fails validation). */
export function normalizeHookKey(key: HookKey | string): HookEventTypes | string {
  requireString(key, "normalizeHookKey(key)", "key");
  // Own keys only: "constructor" or "toString" must not come back as Object's methods.
  return Object.hasOwn(ALIASES, key) ? ALIASES[key]! : key;
}

/** True for a phase value. */
export function isHookEventType(key: unknown): key is HookEventTypes {
  return typeof key === "string" && PHASES.has(key);
}

/** Every key must be a phase (after normalisation) and every value a function. */
export function validateHooks(hooks: ReadonlyMap<string, unknown>): void {
  for (const [key, handler] of hooks) validateHook(key, handler);
}

/** One phase key and its handler. */
export function validateHook(key: string, handler: unknown): void {
  if (!isHookEventType(key)) {
    throw new HookValidationError(`Invalid hook key ${JSON.stringify(key)}; expected one of ${ACCEPTED}`);
  }
  if (typeof handler !== "function") {
    throw new HookValidationError(`The ${key} hook must be a function, got ${describe(handler)}`);
  }
}

/** Every key must be a string or a class and every value a function. */
export function validateStreamHandlers(handlers: ReadonlyMap<unknown, unknown>): void {
  for (const [key, handler] of handlers) validateStreamHandler(key, handler);
}

/** One stream key and its handler. */
export function validateStreamHandler(key: unknown, handler: unknown): void {
  if (typeof key !== "string" && typeof key !== "function") {
    throw new HookValidationError(`A stream handler key must be a string or a class, got ${describe(key)}`);
  }
  if (typeof handler !== "function") {
    throw new HookValidationError(`The stream handler for ${keyName(key as string | ChunkClass)} must be a function, got ${describe(handler)}`);
  }
}

/** How a stream key reads in a message. */
export function keyName(key: string | ChunkClass | null | undefined): string {
  if (typeof key === "function") return key.name || "<anonymous class>";
  return String(key);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "object") return Array.isArray(value) ? "an array" : "an object";
  return typeof value === "string" ? JSON.stringify(value) : typeof value;
}

/** Turns the accepted input shapes into a Map, rejecting what is neither an object nor entries. */
export function toEntryMap(input: unknown, what: string): Map<unknown, unknown> {
  if (input instanceof Map) return new Map(input);
  if (typeof input === "object" && input !== null) {
    if (Symbol.iterator in input) {
      const map = new Map<unknown, unknown>();
      for (const entry of input as Iterable<unknown>) {
        if (!Array.isArray(entry) || entry.length !== 2) {
          throw new HookValidationError(`${what} entries must be [key, handler] pairs`);
        }
        map.set(entry[0], entry[1]);
      }
      return map;
    }
    return new Map(Object.entries(input));
  }
  throw new HookValidationError(`${what} must be an object, got ${describe(input)}`);
}
