// What a callback's return value states, read without trusting its shape: a bridge never throws
// into the SDK, so anything unexpected reads as "no decision".

/** The decision and its reason that a hook's output states. */
export interface StatedDecision {
  readonly decision: string | null;
  readonly reason: string | null;
}

const NONE: StatedDecision = { decision: null, reason: null };

function text(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : null;
}

/**
 * A hook output's decision: `hookSpecificOutput.permissionDecision` (PreToolUse), its
 * `decision.behavior` (PermissionRequest), the top-level `decision` (`block`, `approve`),
 * `continue: false` (stop), `async: true`, in that order.
 */
export function hookDecision(output: unknown): StatedDecision {
  const out = record(output);
  if (out === null) return NONE;
  const specific = record(out["hookSpecificOutput"]);
  if (specific !== null) {
    const permission = text(specific["permissionDecision"]);
    if (permission !== null) return { decision: permission, reason: text(specific["permissionDecisionReason"]) };
    const request = record(specific["decision"]);
    const behavior = text(request?.["behavior"]);
    if (behavior !== null) return { decision: behavior, reason: text(request?.["message"]) };
  }
  const decision = text(out["decision"]);
  if (decision !== null) return { decision, reason: text(out["reason"]) };
  if (out["continue"] === false) return { decision: "stop", reason: text(out["stopReason"]) };
  if (out["async"] === true) return { decision: "async", reason: null };
  return NONE;
}

/** A `canUseTool` result's decision: its `behavior` and, for a deny, its `message`. */
export function permissionDecision(result: unknown): StatedDecision {
  const out = record(result);
  if (out === null) return NONE;
  return { decision: text(out["behavior"]), reason: text(out["message"]) };
}

/** The tool name, tool use id and SDK session id a hook input carries. */
export function inputFacts(input: unknown): { toolName: string | null; toolUseId: string | null; sdkSessionId: string | null } {
  const value = record(input);
  return { toolName: text(value?.["tool_name"]), toolUseId: text(value?.["tool_use_id"]), sdkSessionId: text(value?.["session_id"]) };
}
