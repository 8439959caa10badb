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

/** The logger every runtime module writes to. */
export function getLogger(): Logger {
  return current;
}

/** Replaces the runtime's logger (pass a pino instance, or a test spy); returns the previous one. */
export function setLogger(logger: Logger): Logger {
  const previous = current;
  current = logger;
  return previous;
}
