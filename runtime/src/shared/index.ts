export { HookLensError, InvalidValueError, UnknownNameError } from "./errors.js";
export { consoleLogger, getLogger, setLogger } from "./log.js";
export type { Logger, LogLevel, LogMethod } from "./log.js";
