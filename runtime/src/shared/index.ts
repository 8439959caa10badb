export { HookLensError, InvalidValueError, UnknownNameError } from "./errors.js";
export { consoleLogger, getLogger, setLogger } from "./log.js";
// The runtime's own argument checks, for the SDK bridges' separate CommonJS bundles (which load
// the runtime from the main entry) and for code that wants the same messages.
export { optionsObject, requireMethod, requireObject } from "./arguments.js";
export type { Logger, LogLevel, LogMethod } from "./log.js";
export {
  CIRCULAR_MARK,
  configureRedaction,
  DEFAULT_MAX_DEPTH,
  isSecretKey,
  REDACTION_MASK,
  redactError,
  redactionRules,
  redactText,
  redactValue,
  RedactionRules,
  SECRET_KEY_FRAGMENTS,
  SECRET_KEY_WORDS,
  TOO_DEEP_MARK,
} from "./redaction/index.js";
export type { RedactCallOptions, RedactionOptions } from "./redaction/index.js";
