import { HookLensError, InvalidValueError } from "../shared/errors.js";

/**
 * A guard or permission policy refused a tool call (Python's `PermissionError`). Thrown from a
 * Tool pre-hook it stops the chain, so the callable never runs.
 */
export class PermissionError extends HookLensError {
  override name = "PermissionError";
}

/** An option outside what the action flow accepts, such as an unknown strategy. */
export class ConfigurationError extends InvalidValueError {
  override name = "ConfigurationError";
}

/** The arguments of a tool call do not fit the tool: names the tool and the offending fields. */
export class ToolArgumentsError extends InvalidValueError {
  override name = "ToolArgumentsError";
  readonly tool: string;
  readonly fields: readonly string[];

  constructor(tool: string, fields: readonly string[], message: string) {
    super(message);
    this.tool = tool;
    this.fields = fields;
  }
}

/** A feature the as-built object refuses on purpose (Python's `NotImplementedError`). */
export class NotSupportedError extends HookLensError {
  override name = "NotSupportedError";
}
