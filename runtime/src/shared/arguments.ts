import type { z } from "zod";
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

/** An object with method `method` (a duck-typed collaborator: a tool host, a store, a connection). */
export function requireMethod<T>(value: T, where: string, what: string, method: string): T {
  const fn = value !== null && typeof value === "object" ? (value as Record<string, unknown>)[method] : undefined;
  if (typeof fn !== "function") throw new InvalidValueError(`${where}: ${what} must be an object with ${method}(), got ${describeValue(value)}`);
  return value;
}

/** An array whose every element is a function (a list of hooks). */
export function requireFunctions<T extends readonly unknown[]>(value: T, where: string, what: string): T {
  requireArray(value, where, what);
  for (let i = 0; i < value.length; i++) {
    if (typeof value[i] !== "function") throw new InvalidValueError(`${where}: ${what}[${i}] must be a function, got ${describeValue(value[i])}`);
  }
  return value;
}

/** An array whose every element is a string (argv, file endings, key patterns); `nonEmpty` also refuses "". */
export function requireStrings<T extends readonly unknown[]>(value: T, where: string, what: string, nonEmpty = false): T {
  requireArray(value, where, what);
  for (let i = 0; i < value.length; i++) {
    const item = value[i];
    if (typeof item !== "string" || (nonEmpty && item === "")) {
      throw new InvalidValueError(`${where}: ${what}[${i}] must be a ${nonEmpty ? "non-empty " : ""}string, got ${describeValue(item)}`);
    }
  }
  return value;
}

/** A positive finite number (a timeout, a threshold); `integer` also refuses fractions. */
export function requirePositive(value: unknown, where: string, what: string, integer = false): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new InvalidValueError(`${where}: ${what} must be a positive ${integer ? "integer" : "number"}, got ${describeValue(value)}`);
  }
  return value;
}

/** `value` as an instance of `type` (by `instanceof`); `typeName` is spelled out, as a bundler may rename classes. */
export function requireInstance<T>(value: unknown, type: abstract new (...args: never[]) => T, typeName: string, where: string, what: string): T {
  if (!(value instanceof type)) throw new InvalidValueError(`${where}: ${what} must be ${typeName}, got ${describeValue(value)}`);
  return value;
}

/** `value` parsed by a zod `schema`; a mismatch names each field and what is wrong with it. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, where: string, what: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => `${[what, ...issue.path.map(String)].join(".")}: ${issue.message}`).join("; ");
  throw new InvalidValueError(`${where}: ${issues}`);
}
