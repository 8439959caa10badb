import { REDACTION_MASK } from "./textRules.js";
import type { RedactCallOptions } from "./rules.js";
import { redactionRules } from "./settings.js";

/**
 * A copy of `error` safe to throw or log: same class (prototype) and name, message and stack
 * redacted, its `cause` chain redacted the same way (up to 8 levels). Other own properties are
 * dropped unless they are numbers or booleans (status codes, retry flags). Never throws.
 */
export function redactError<E>(error: E, options: RedactCallOptions = {}, depth = 0): E {
  if (!(error instanceof Error)) return error;
  const rules = redactionRules();
  try {
    const copy = Object.create(Object.getPrototypeOf(error) as object) as Error & Record<string, unknown>;
    for (const key of Object.keys(error)) {
      const value = (error as unknown as Record<string, unknown>)[key];
      if (typeof value === "number" || typeof value === "boolean") copy[key] = value;
      else if (typeof value === "string") copy[key] = rules.redactText(value, options);
    }
    define(copy, "name", rules.redactText(String(error.name), options));
    define(copy, "message", rules.redactText(String(error.message), options));
    define(copy, "stack", rules.redactText(String(error.stack ?? ""), options));
    const cause = (error as { cause?: unknown }).cause;
    if (cause !== undefined) {
      define(
        copy,
        "cause",
        cause instanceof Error && depth < 8 ? redactError(cause, options, depth + 1) : rules.redactValue(cause, options),
      );
    }
    return copy as E;
  } catch {
    return new Error(REDACTION_MASK) as E;
  }
}

function define(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    writable: true,
    configurable: true,
    enumerable: false,
  });
}
