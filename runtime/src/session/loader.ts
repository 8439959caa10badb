import { InvalidValueError, UnknownNameError } from "../shared/errors.js";
import {
  logApiMetrics,
  logToolCall,
  logToolUse,
  persistBranchProvenance,
  persistMessage,
  persistSessionEnd,
  persistSessionStart,
} from "./builtins.js";
import { HookBus, type HookHandler, type HookSignalRecorder } from "./hookBus.js";
import { HookPoint } from "./hookPoint.js";
import { typeName } from "./describe.js";
import { optionsObject, requireFunction, requireName, requireObject } from "../shared/arguments.js";

/** A handler for any point, whatever payload type it declares (what the name registry holds). */
export type AnyHookHandler = (payload: never) => unknown;

/** Agent hook declarations: point value → handler names, e.g. `{"tool.pre": ["logToolCall"]}`. */
export type AgentHooks = Readonly<Record<string, readonly string[]>>;

type DefaultHookPoint = HookPoint.SESSION_START | HookPoint.SESSION_END | HookPoint.MESSAGE_ADD | HookPoint.BRANCH_CREATE;

// The built-ins declare their own payload types; the bus hands every handler a plain payload.
// persistMessage's type really does not fit MESSAGE_ADD (it needs a sessionId): that mismatch
// is the original's, reproduced on purpose.
const busHandler = (handler: AnyHookHandler): HookHandler => handler as unknown as HookHandler;

/** The handlers every Session bus starts with, per point, in this point order. */
export const DEFAULT_HOOKS: Readonly<Record<DefaultHookPoint, readonly HookHandler[]>> = Object.freeze({
  [HookPoint.SESSION_START]: Object.freeze([busHandler(persistSessionStart)]),
  [HookPoint.SESSION_END]: Object.freeze([busHandler(persistSessionEnd)]),
  [HookPoint.MESSAGE_ADD]: Object.freeze([busHandler(persistMessage)]),
  [HookPoint.BRANCH_CREATE]: Object.freeze([busHandler(persistBranchProvenance)]),
});

const registry = new Map<string, HookHandler>([
  ["persistSessionStart", busHandler(persistSessionStart)],
  ["persistSessionEnd", busHandler(persistSessionEnd)],
  ["persistBranchProvenance", busHandler(persistBranchProvenance)],
  ["persistMessage", busHandler(persistMessage)],
  ["logApiMetrics", busHandler(logApiMetrics)],
  ["logToolCall", busHandler(logToolCall)],
  ["logToolUse", busHandler(logToolUse)],
]);

/** Registers `handler` under `name` for agent hook declarations, process-wide. The last registration of a name wins. */
export function registerHandler(name: string, handler: AnyHookHandler): void {
  requireName(name, "registerHandler(name, handler)", "name");
  requireFunction(handler, "registerHandler(name, handler)", "handler");
  registry.set(name, busHandler(handler));
}

/** The handler registered as `name`; an {@link UnknownNameError} listing the registered names otherwise. */
export function resolveHandler(name: string): HookHandler {
  requireName(name, "resolveHandler(name)", "name");
  const handler = registry.get(name);
  if (handler) return handler;
  throw new UnknownNameError(`Unknown hook handler '${name}'. Registered: [${registeredHandlerNames().join(", ")}]`);
}

/** Every registered handler name, sorted. */
export function registeredHandlerNames(): string[] {
  return [...registry.keys()].sort();
}

const SORTED_POINTS = Object.values(HookPoint).sort();

/**
 * Resolves agent hook declarations to handlers, per point, in declaration order. Nothing
 * declared (null, undefined, `{}`) gives no overrides. It does not merge with the defaults.
 */
export function loadHooksForAgent(agentHooks: AgentHooks | null | undefined): Map<HookPoint, HookHandler[]> {
  const overrides = new Map<HookPoint, HookHandler[]>();
  if (agentHooks === null || agentHooks === undefined) return overrides;
  requireObject(agentHooks, "loadHooksForAgent(agentHooks)", "agentHooks ({ [hook point]: [handler names] })");
  for (const [pointValue, names] of Object.entries(agentHooks)) {
    if (!(SORTED_POINTS as string[]).includes(pointValue)) {
      throw new InvalidValueError(`Unknown hook point '${pointValue}'; valid: [${SORTED_POINTS.join(", ")}]`);
    }
    if (!Array.isArray(names)) {
      throw new InvalidValueError(`hooks.${pointValue} must be a list of handler names; got ${typeName(names)}`);
    }
    overrides.set(pointValue as HookPoint, names.map((name: string) => resolveHandler(name)));
  }
  return overrides;
}

/**
 * A new HookBus: each default point gets its override list if declared (an empty list disables
 * it), otherwise its defaults; overrides for other points follow in declaration order. Only the
 * name registry is shared between buses.
 */
export function buildSessionBus(
  agentHooks: AgentHooks | null = null,
  options: { observer?: HookSignalRecorder | null } = {},
): HookBus {
  options = optionsObject(options, "buildSessionBus(agentHooks, options)");
  const overrides = loadHooksForAgent(agentHooks);
  const bus = new HookBus(options.observer ?? null);
  for (const [point, defaults] of Object.entries(DEFAULT_HOOKS) as [DefaultHookPoint, readonly HookHandler[]][]) {
    for (const handler of overrides.get(point) ?? defaults) bus.on(point, handler);
  }
  for (const [point, handlers] of overrides) {
    if (point in DEFAULT_HOOKS) continue;
    for (const handler of handlers) bus.on(point, handler);
  }
  return bus;
}
