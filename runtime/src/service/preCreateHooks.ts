import type { APICalling } from "./apiCalling.js";
import type { HookEvent } from "./hookEvent.js";

/** The pre-event-create hook each APICalling was made after (weak: it goes with the call). */
const PRE_CREATE_HOOKS = new WeakMap<APICalling, HookEvent>();

/** @internal Remembers that `hook` ran before `apiCall` was built (IModel.createEvent). */
export function rememberPreCreateHook(apiCall: APICalling, hook: HookEvent): void {
  PRE_CREATE_HOOKS.set(apiCall, hook);
}

/** @internal The pre-event-create HookEvent that ran before `apiCall` was built, if one did (for the call's record). */
export function preCreateHookOf(apiCall: APICalling): HookEvent | undefined {
  return PRE_CREATE_HOOKS.get(apiCall);
}
