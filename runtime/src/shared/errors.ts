/**
 * Error conventions of the runtime. The Python original raises `ValueError` and `KeyError`;
 * HookLens maps them to two named classes so callers can tell a bad value from a missing name
 * without parsing messages.
 */
export class HookLensError extends Error {
  override name = "HookLensError";
}

/** A value outside what an API accepts (Python's `ValueError`). */
export class InvalidValueError extends HookLensError {
  override name = "InvalidValueError";
}

/** A name that is not registered (Python's `KeyError`). */
export class UnknownNameError extends HookLensError {
  override name = "UnknownNameError";
}
