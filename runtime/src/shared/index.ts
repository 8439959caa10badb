export { HookLensError, InvalidValueError, UnknownNameError } from "./errors.js";
export { consoleLogger, getLogger, setLogger } from "./log.js";
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
