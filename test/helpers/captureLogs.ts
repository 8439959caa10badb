import { setLogger, type Logger, type LogLevel } from "@hooklens/runtime";

export interface CapturedLog {
  level: LogLevel;
  msg: string;
  fields: Record<string, unknown>;
}

/** Routes the runtime logger into an array for the duration of a test; call `restore()` after. */
export function captureLogs(): { logs: CapturedLog[]; restore: () => void } {
  const logs: CapturedLog[] = [];
  const method =
    (level: LogLevel) =>
    (objOrMsg: object | string, msg?: string): void => {
      if (typeof objOrMsg === "string") logs.push({ level, msg: objOrMsg, fields: {} });
      else logs.push({ level, msg: msg ?? "", fields: objOrMsg as Record<string, unknown> });
    };
  const logger: Logger = { debug: method("debug"), info: method("info"), warn: method("warn"), error: method("error") };
  const previous = setLogger(logger);
  return { logs, restore: () => setLogger(previous) };
}
