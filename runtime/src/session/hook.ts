import { normalizePoint, type HookPoint, type HookPointLike } from "./hookPoint.js";
import type { HookHandler } from "./hookBus.js";
import { requireFunction } from "../shared/arguments.js";

/** The property `hook(point)` sets on a function (the Python original's `__lionagi_hook_point__`). */
export const HOOK_POINT: unique symbol = Symbol.for("hooklens.hookPoint");

export type MarkedHandler<F extends HookHandler> = F & { [HOOK_POINT]: HookPoint };

/**
 * Marks a function with a hook point. It registers nothing: pass the function to `HookBus.on`
 * yourself. The point is validated at once.
 */
export function hook(point: HookPointLike): <F extends HookHandler>(fn: F) => MarkedHandler<F> {
  const member = normalizePoint(point);
  return <F extends HookHandler>(fn: F): MarkedHandler<F> => {
    requireFunction(fn, `hook(${JSON.stringify(member)})(fn)`, "fn (the handler to mark)");
    Object.defineProperty(fn, HOOK_POINT, { value: member, configurable: true, enumerable: false, writable: true });
    return fn as MarkedHandler<F>;
  };
}

/** The point a function was marked with by `hook(point)`, if any. */
export function markedPoint(fn: unknown): HookPoint | undefined {
  return typeof fn === "function" ? (fn as Partial<Record<typeof HOOK_POINT, HookPoint>>)[HOOK_POINT] : undefined;
}
