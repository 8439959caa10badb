import { requireObject } from "./arguments.js";
import { REDACTION_MASK, redactError, redactionRules } from "./redaction/index.js";

/**
 * The runtime's logger. Any pino-compatible logger fits (`info(obj, msg)` or `info(msg)`); the
 * default writes warnings and errors to stderr so swallowed hook failures stay visible.
 */
export type LogLevel = "debug" | "info" | "warn" | "error";

export interface LogMethod {
  (msg: string): void;
  (obj: object, msg?: string): void;
}

export interface Logger {
  debug: LogMethod;
  info: LogMethod;
  warn: LogMethod;
  error: LogMethod;
}

const LEVELS: readonly LogLevel[] = ["debug", "info", "warn", "error"];

/** A small console logger; `minLevel` drops anything less severe. */
export function consoleLogger(minLevel: LogLevel = "warn"): Logger {
  const floor = LEVELS.indexOf(minLevel);
  const method =
    (level: LogLevel): LogMethod =>
    (objOrMsg: object | string, msg?: string) => {
      if (LEVELS.indexOf(level) < floor) return;
      const text = typeof objOrMsg === "string" ? objOrMsg : `${msg ?? ""} ${safeJson(objOrMsg)}`.trim();
      process.stderr.write(`[hooklens] ${level}: ${text}\n`);
    };
  return { debug: method("debug"), info: method("info"), warn: method("warn"), error: method("error") };
}

function safeJson(value: object): string {
  try {
    return JSON.stringify(value, (_k, v: unknown) => (v instanceof Error ? `${v.name}: ${v.message}` : v));
  } catch {
    return "[unserialisable]";
  }
}

let current: Logger = consoleLogger();
let redacting: Logger = redactingLogger(current);

/**
 * The logger every runtime module writes to: the one installed with {@link setLogger}, behind the
 * shared redaction rules, so no runtime log line carries a secret (messages, fields, errors).
 */
export function getLogger(): Logger {
  return redacting;
}

/** Replaces the runtime's logger (pass a pino instance, or a test spy); returns the previous one. */
export function setLogger(logger: Logger): Logger {
  requireObject(logger, "setLogger(logger)", "logger (a pino-like logger)");
  const previous = current;
  current = logger;
  redacting = redactingLogger(logger);
  return previous;
}

/** `logger` with every message redacted, every field made redacted JSON data, errors redacted copies. */
function redactingLogger(logger: Logger): Logger {
  const method =
    (level: LogLevel): LogMethod =>
    (objOrMsg: object | string, msg?: string) => {
      const rules = redactionRules();
      if (!rules.enabled) {
        if (typeof objOrMsg === "string") logger[level](objOrMsg);
        else logger[level](objOrMsg, msg);
        return;
      }
      if (typeof objOrMsg === "string") {
        logger[level](rules.redactText(objOrMsg));
        return;
      }
      const fields: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(objOrMsg)) {
        fields[key] = value instanceof Error ? redactError(value) : rules.isSecretKey(key) ? REDACTION_MASK : rules.redactValue(value);
      }
      if (msg === undefined) logger[level](fields);
      else logger[level](fields, rules.redactText(msg));
    };
  return { debug: method("debug"), info: method("info"), warn: method("warn"), error: method("error") };
}
