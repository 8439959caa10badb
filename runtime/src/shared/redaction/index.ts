export { SECRET_KEY_FRAGMENTS, SECRET_KEY_WORDS } from "./keyNames.js";
export { REDACTION_MASK } from "./textRules.js";
export { CIRCULAR_MARK, DEFAULT_MAX_DEPTH, TOO_DEEP_MARK } from "./walk.js";
export { RedactionRules } from "./rules.js";
export type { RedactCallOptions, RedactionOptions } from "./rules.js";
export { configureRedaction, isSecretKey, redactionRules, redactText, redactValue } from "./settings.js";
export { redactError } from "./errors.js";
export { hiddenStringsOf } from "./hiddenValues.js";
