import { InvalidValueError } from "./errors.js";

/**
 * Checks at the public API boundary for callers without a type checker (plain JavaScript):
 * a wrong argument fails where it is passed, with a message naming the API and what it got,
 * instead of as a TypeError deep inside ("Cannot read properties of null").
 */

/** What a value is, for an error message: `null`, `an array`, `a number (42)`, `a string ("x")`. */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "function") return "a function";
  if (typeof value === "object") return "an object";
  const shown = typeof value === "string" ? JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value) : String(value);
  return `a ${typeof value} (${shown})`;
}

/** An options object that may be left out: `undefined` becomes `{}`; null, arrays and primitives are refused. */
export function optionsObject<T extends object>(options: T | undefined, where: string): T {
  if (options === undefined) return {} as T;
  return requireObject(options, where, "options");
}

/** A required object argument (not null, not an array). */
export function requireObject<T>(value: T, where: string, what: string): T {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new InvalidValueError(`${where}: ${what} must be an object, got ${describeValue(value)}`);
  }
  return value;
}

/** A required function argument (a handler, a check, a callable). */
export function requireFunction<T>(value: T, where: string, what: string): T {
  if (typeof value !== "function") throw new InvalidValueError(`${where}: ${what} must be a function, got ${describeValue(value)}`);
  return value;
}

/** A required non-empty string argument (a name). */
export function requireName(value: unknown, where: string, what: string): string {
  if (typeof value !== "string" || value === "") throw new InvalidValueError(`${where}: ${what} must be a non-empty string, got ${describeValue(value)}`);
  return value;
}

/** A zod schema (anything with `safeParse`), or null where the API allows "no schema". */
export function requireSchema<T>(value: T, where: string, what: string): T {
  const parse = value !== null && typeof value === "object" ? (value as { safeParse?: unknown }).safeParse : undefined;
  if (typeof parse !== "function") throw new InvalidValueError(`${where}: ${what} must be a zod schema, got ${describeValue(value)}`);
  return value;
}

/** A required array argument (a list of tools, of hooks, of patterns). */
export function requireArray<T>(value: T, where: string, what: string): T {
  if (!Array.isArray(value)) throw new InvalidValueError(`${where}: ${what} must be an array, got ${describeValue(value)}`);
  return value;
}

/** A required string argument that may be empty (a command line, a text to scan). */
export function requireString(value: unknown, where: string, what: string): string {
  if (typeof value !== "string") throw new InvalidValueError(`${where}: ${what} must be a string, got ${describeValue(value)}`);
  return value;
}

/** An object argument that may also be null (an observer to bind, a store to clear). */
export function objectOrNull<T>(value: T, where: string, what: string): T {
  return value === null ? value : requireObject(value, where, what);
}
