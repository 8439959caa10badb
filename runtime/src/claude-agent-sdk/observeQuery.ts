import type { SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { requireMethod, requireObject } from "../shared/arguments.js";
import type { SessionObserver } from "../session/observer.js";
import { record } from "./observeCall.js";
import { ClaudeQueryEvent } from "./signals.js";
import { observerOf } from "./withHookLens.js";

const RECORDED = new Set(["hook_started", "hook_progress", "hook_response", "permission_denied"]);

/**
 * Returns `query` (what `query()` returned for options made by withHookLens) with its hook
 * lifecycle messages (`includeHookEvents`) and `permission_denied` messages recorded as they are
 * read. Every message, method and property of the query is passed on unchanged. For options
 * withHookLens did not make, `query` itself is returned.
 */
export function observeQuery<Q extends AsyncIterator<SDKMessage> & AsyncIterable<SDKMessage>>(query: Q, options: object): Q {
  requireMethod(query, "observeQuery(query, options)", "query", "next");
  const observer = observerOf(requireObject(options, "observeQuery(query, options)", "options"));
  if (observer === undefined) return query;
  const next = async (...args: [] | [unknown]): Promise<IteratorResult<SDKMessage>> => {
    const result = await query.next(...args);
    if (!result.done) recordMessage(observer, result.value);
    return result;
  };
  return new Proxy(query, {
    get(target, key) {
      if (key === "next") return next;
      if (key === Symbol.asyncIterator) return function (this: unknown) { return this; };
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

function recordMessage(observer: SessionObserver, message: SDKMessage): void {
  if (message.type !== "system" || !RECORDED.has(message.subtype)) return;
  record(observer, () => {
    const m = message as Record<string, unknown>;
    const text = (key: string): string | null => (typeof m[key] === "string" ? (m[key] as string) : null);
    const denied = message.subtype === "permission_denied";
    return new ClaudeQueryEvent({
      subtype: message.subtype,
      event: text("hook_event"),
      hookName: text("hook_name"),
      toolName: text("tool_name"),
      toolUseId: text("tool_use_id"),
      sdkSessionId: text("session_id"),
      outcome: denied ? "denied" : text("outcome"),
      reason: denied ? (text("decision_reason") ?? text("message")) : null,
      message,
    });
  });
}
