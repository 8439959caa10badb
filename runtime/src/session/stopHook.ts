/**
 * Thrown by a HookBus handler to stop the remaining handlers of the current emission. It is
 * swallowed by the bus and never stops the operation being observed.
 */
export class StopHook extends Error {
  override name = "StopHook";
}
