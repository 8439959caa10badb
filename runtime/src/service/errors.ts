import { HookLensError, InvalidValueError } from "../shared/errors.js";

/** A hook key, hook handler or stream handler that the registry does not accept (Python's ValidationError). */
export class HookValidationError extends InvalidValueError {
  override name = "HookValidationError";
}

/** The registry was asked to run a handler that is not registered (Python's RuntimeError). */
export class MissingHookHandlerError extends HookLensError {
  override name = "MissingHookHandlerError";
}

/** A hook phase stopped an event: "Pre-invoke hook cancelled: …", "… requested exit without a cause". */
export class HookPhaseError extends HookLensError {
  override name = "HookPhaseError";
}

/** A HookEvent's own deadline passed before its handler settled. */
export class HookTimeoutError extends HookLensError {
  override name = "TimeoutError";
}

/** A stream was closed by its consumer before it finished. */
export class StreamClosedError extends HookLensError {
  override name = "StreamClosedError";
}
