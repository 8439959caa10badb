import type { ToolPostHook, ToolPreHook } from "./hookTypes.js";
import { isPlainObject, ownValue, type ToolArgs } from "./objects.js";
import { requireFunctions, requireName } from "../shared/arguments.js";

/** A Tool preprocessor built from pre-hooks; `hooks` is the exact order they run in. */
export type PreHookChain = ((args: ToolArgs) => Promise<ToolArgs>) & { readonly hooks: readonly ToolPreHook[] };
/** A Tool postprocessor built from post-hooks; `hooks` is the exact order they run in. */
export type PostHookChain = ((result: unknown) => Promise<unknown>) & { readonly hooks: readonly ToolPostHook[] };

/**
 * Chains pre-hooks into one Tool preprocessor: the security hooks, then the user hooks, then —
 * only when there is at least one user hook — the security hooks again, so a user hook cannot
 * rewrite the arguments past a guard. Returns null when there is nothing to run.
 *
 * Each hook gets `(toolName, args.action ?? "", args)`; an object it returns replaces the
 * arguments, anything else is ignored; a throw stops the chain. The chain always returns the
 * argument object.
 */
export function chainPreHooks(
  toolName: string,
  securityHooks: readonly ToolPreHook[],
  userHooks: readonly ToolPreHook[] = [],
): PreHookChain | null {
  const where = "chainPreHooks(toolName, securityHooks, userHooks)";
  requireName(toolName, where, "toolName");
  requireFunctions(securityHooks, where, "securityHooks");
  requireFunctions(userHooks, where, "userHooks");
  const hooks = Object.freeze([...securityHooks, ...userHooks, ...(userHooks.length > 0 ? securityHooks : [])]);
  if (hooks.length === 0) return null;
  const chained = async (args: ToolArgs): Promise<ToolArgs> => {
    let current = args;
    for (const hook of hooks) {
      const result = await hook(toolName, actionOf(current), current);
      if (isPlainObject(result)) current = result;
    }
    return current;
  };
  return Object.assign(chained, { hooks });
}

/**
 * Chains post-hooks into one Tool postprocessor. A result that is not a plain object is returned
 * unchanged and NO hook runs. Otherwise each hook gets `(toolName, "", {}, result)` — an empty
 * action and an empty argument object — and an object it returns replaces the result.
 */
export function chainPostHooks(toolName: string, hooks: readonly ToolPostHook[]): PostHookChain | null {
  requireName(toolName, "chainPostHooks(toolName, hooks)", "toolName");
  requireFunctions(hooks, "chainPostHooks(toolName, hooks)", "hooks");
  const frozen = Object.freeze([...hooks]);
  if (frozen.length === 0) return null;
  const chained = async (result: unknown): Promise<unknown> => {
    if (!isPlainObject(result)) return result;
    let current = result;
    for (const hook of frozen) {
      const modified = await hook(toolName, "", {}, current);
      if (isPlainObject(modified)) current = modified;
    }
    return current;
  };
  return Object.assign(chained, { hooks: frozen });
}

/** The call's `action` argument as pre-hooks see it: the own string value, or "". */
export function actionOf(args: ToolArgs): string {
  const action = ownValue(args, "action");
  if (action === undefined || action === null) return "";
  return typeof action === "string" ? action : String(action);
}
