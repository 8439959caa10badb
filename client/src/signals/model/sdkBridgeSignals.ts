// The signals the SDK bridges record (`@hooklens/runtime/claude-agent-sdk`): how the view names
// them, and what it reads from them. A hook or permission callback call belongs to the tool use
// it was about (its `toolUseId`), so a tool use's hooks group together as one call.
import { formatDuration, joinParts } from "./format.js";
import { asRecord, clip, errorText, numberField, stringField, type JsonRecord } from "./payloadFields.js";
import type { SignalFacts } from "./signalFacts.js";
import type { KindStyle } from "./signalKinds.js";

export const SDK_BRIDGE_STYLES: Readonly<Record<string, KindStyle>> = {
  ClaudeHookCall: { name: "Claude Agent SDK hook", icon: "symbol-event", color: "charts.blue" },
  ClaudePermissionCall: { name: "Claude Agent SDK canUseTool", icon: "shield", color: "charts.blue" },
  ClaudeQueryEvent: { name: "Claude Agent SDK event", icon: "bell", color: null },
};

const DENYING = new Set(["deny", "block"]);
const FAILED = new Set(["threw", "aborted", "timeout"]);

type BridgeFacts = Pick<SignalFacts, "call" | "toolName" | "durationMs" | "problem" | "detail" | "hook" | "label">;

/** What the view reads from a bridge signal; null for any other kind. Never throws. */
export function sdkBridgeFacts(kind: string, payload: JsonRecord): BridgeFacts | null {
  if (kind === "ClaudeQueryEvent") return queryEventFacts(payload);
  if (kind !== "ClaudeHookCall" && kind !== "ClaudePermissionCall") return null;
  const toolName = stringField(payload, "toolName");
  const toolUseId = stringField(payload, "toolUseId");
  const decision = stringField(payload, "decision");
  const outcome = stringField(payload, "outcome");
  const reason = stringField(payload, "reason");
  const durationMs = numberField(payload, "durationMs");
  const what = kind === "ClaudeHookCall" ? (stringField(payload, "event") ?? "hook") : "canUseTool";
  const callback = stringField(payload, "callback");
  const failed = outcome !== null && FAILED.has(outcome);
  const denied = !failed && decision !== null && DENYING.has(decision);
  const error = failed ? (errorText(payload["error"]) ?? `the callback ${outcome === "threw" ? "threw" : `ended after an ${outcome === "timeout" ? "SDK timeout" : "abort"}`}`) : null;
  const verdict = failed ? `${outcome}${error ? `: ${clip(error)}` : ""}` : decision ? `→ ${decision}${reason ? `: ${clip(reason)}` : ""}` : "";
  return {
    call: toolUseId ? { kind: "tool", callId: toolUseId, parentCallId: null } : null,
    toolName,
    durationMs,
    problem: failed ? "error" : denied ? "denied" : null,
    detail: failed ? error : denied ? (reason ?? decision) : null,
    hook: callback ? `${what}:${callback}` : what,
    label: joinParts([what, toolName ?? "", verdict, durationMs !== null ? `(${formatDuration(durationMs)})` : ""], " "),
  };
}

function queryEventFacts(payload: JsonRecord): BridgeFacts {
  const subtype = stringField(payload, "subtype") ?? "event";
  const toolUseId = stringField(payload, "toolUseId");
  const denied = subtype === "permission_denied";
  const reason = stringField(payload, "reason");
  const name = stringField(payload, "hookName") ?? stringField(payload, "toolName");
  const outcome = stringField(payload, "outcome");
  return {
    call: toolUseId ? { kind: "tool", callId: toolUseId, parentCallId: null } : null,
    toolName: stringField(payload, "toolName"),
    durationMs: null,
    problem: denied ? "denied" : outcome === "error" ? "error" : null,
    detail: denied ? (reason ?? "permission denied") : outcome === "error" ? stringField(asRecord(payload["message"]), "stderr") : null,
    hook: null,
    label: joinParts([subtype.replace(/_/g, " "), name ?? "", outcome && !denied ? `· ${outcome}` : "", reason ? `: ${clip(reason)}` : ""], " "),
  };
}
