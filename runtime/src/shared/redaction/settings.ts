import { requireString } from "../arguments.js";
import { RedactionRules, type RedactCallOptions, type RedactionOptions } from "./rules.js";

let current = new RedactionRules();

/**
 * Installs the process-wide rule set every way out uses (signals, live frames, logs, endpoint
 * errors, OpenTelemetry): the defaults plus what `options` adds, or nothing at all with
 * `{ enabled: false }`. Each call replaces the previous configuration; `configureRedaction()`
 * restores the defaults. Returns the rules now in force.
 */
export function configureRedaction(options?: RedactionOptions): RedactionRules {
  current = new RedactionRules(options);
  return current;
}

/** The rule set in force. */
export function redactionRules(): RedactionRules {
  return current;
}

/** {@link RedactionRules.redactText} with the rules in force. */
export function redactText(text: string, options?: RedactCallOptions): string {
  return current.redactText(text, options);
}

/** {@link RedactionRules.redactValue} with the rules in force. */
export function redactValue(value: unknown, options?: RedactCallOptions): unknown {
  return current.redactValue(value, options);
}

/** Whether the rules in force hide a value under this key, header or parameter name. */
export function isSecretKey(name: string): boolean {
  requireString(name, "isSecretKey(name)", "name (a key, header or parameter name)");
  return current.isSecretKey(name);
}
