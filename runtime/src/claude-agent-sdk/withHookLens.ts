import type { CanUseTool, HookCallback, HookCallbackMatcher, Options } from "@anthropic-ai/claude-agent-sdk";
import { optionsObject, requireObject } from "../shared/arguments.js";
import { SessionObserver } from "../session/observer.js";
import { Session } from "../session/session.js";
import { observeCall, type CallEnd } from "./observeCall.js";
import { hookDecision, inputFacts, permissionDecision, type StatedDecision } from "./outputs.js";
import { ClaudeHookCall, ClaudePermissionCall, type CallbackCallInit } from "./signals.js";

/** Where the bridge records: a Session (its observer), an observer, or a new observer of its own. */
export interface HookLensOptions {
  readonly session?: Session | SessionObserver;
}

/** The options withHookLens returned → the observer their callbacks record to (read by observeQuery). */
const observers = new WeakMap<object, SessionObserver>();

/** The observer that `options` (as withHookLens returned them) record to; undefined for other options. */
export function observerOf(options: object): SessionObserver | undefined {
  return observers.get(options);
}

/**
 * Returns a copy of `options` whose hook callbacks and `canUseTool` are wrapped: every call is
 * recorded as a signal (event, matcher, tool, tool use id, input, output and its decision,
 * latency, and how it ended) in the HookLens session, which streams, persists and exports it as it
 * does every signal. What each callback returns or throws reaches the SDK unchanged; matchers keep
 * every other field.
 */
export function withHookLens<O extends Options>(options: O, lens?: HookLensOptions): O {
  requireObject(options, "withHookLens(options, lens)", "options");
  lens = optionsObject(lens, "withHookLens(options, lens)");
  const observer = lens.session instanceof Session ? lens.session.observer : (lens.session ?? new SessionObserver());
  const wrapped: O = { ...options };
  if (options.hooks) wrapped.hooks = wrapHooks(options.hooks, observer);
  if (typeof options.canUseTool === "function") wrapped.canUseTool = wrapCanUseTool(options.canUseTool, observer);
  observers.set(wrapped, observer);
  return wrapped;
}

type Hooks = NonNullable<Options["hooks"]>;

function wrapHooks(hooks: Hooks, observer: SessionObserver): Hooks {
  const out: Record<string, HookCallbackMatcher[] | undefined> = {};
  for (const [event, matchers] of Object.entries(hooks) as Array<[string, HookCallbackMatcher[] | undefined]>) {
    out[event] = Array.isArray(matchers) ? matchers.map((m) => (m && Array.isArray(m.hooks) ? { ...m, hooks: m.hooks.map((h) => wrapHook(event, m, h, observer)) } : m)) : matchers;
  }
  return out as Hooks;
}

/** The fields every callback call records, from how it ended and what it stated. */
function callFields(end: CallEnd, stated: StatedDecision, facts: { toolName: string | null; toolUseId: string | null; sdkSessionId: string | null }, input: unknown, callback: string): CallbackCallInit {
  return { ...facts, input, output: end.output ?? null, decision: stated.decision, reason: stated.reason, outcome: end.outcome, error: end.error, durationMs: end.durationMs, callback };
}

const NO_DECISION: StatedDecision = { decision: null, reason: null };

function wrapHook(event: string, matcher: HookCallbackMatcher, callback: HookCallback, observer: SessionObserver): HookCallback {
  if (typeof callback !== "function") return callback;
  const pattern = typeof matcher.matcher === "string" ? matcher.matcher : null;
  const timeoutSeconds = typeof matcher.timeout === "number" ? matcher.timeout : null;
  const onFailure = typeof matcher.onFailure === "string" ? matcher.onFailure : null;
  const name = callback.name;
  return function hookLensHook(this: unknown, input, toolUseID, options) {
    return observeCall(observer, options?.signal, timeoutSeconds, () => callback.call(this, input, toolUseID, options), (end) => {
      const facts = inputFacts(input);
      if (toolUseID !== undefined) facts.toolUseId = toolUseID;
      const stated = end.outcome === "returned" ? hookDecision(end.output) : NO_DECISION;
      const hookEvent = (input as { hook_event_name?: unknown } | null)?.hook_event_name;
      const fields = callFields(end, stated, facts, input, name);
      return new ClaudeHookCall({ ...fields, event: typeof hookEvent === "string" ? hookEvent : event, matcher: pattern, timeoutSeconds, onFailure }, { createdAt: end.createdAt });
    });
  };
}

function wrapCanUseTool(canUseTool: CanUseTool, observer: SessionObserver): CanUseTool {
  const name = canUseTool.name;
  return function hookLensCanUseTool(this: unknown, toolName, input, options) {
    return observeCall(observer, options?.signal, null, () => canUseTool.call(this, toolName, input, options), (end) => {
      const stated = end.outcome === "returned" ? permissionDecision(end.output) : NO_DECISION;
      const toolUseId = typeof options?.toolUseID === "string" ? options.toolUseID : null;
      return new ClaudePermissionCall(callFields(end, stated, { toolName, toolUseId, sdkSessionId: null }, input, name), { createdAt: end.createdAt });
    });
  };
}
