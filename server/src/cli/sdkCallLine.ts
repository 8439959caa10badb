import type { JsonObject, JsonValue } from "@hooklens/runtime";
import { formatMs } from "./durations.js";
import { oneLine } from "./oneLine.js";

/** What the SDK bridges record (`@hooklens/runtime/claude-agent-sdk`): callback calls and query events. */
const SDK_KINDS = new Set(["ClaudeHookCall", "ClaudePermissionCall", "ClaudeQueryEvent"]);
const REASON_CHARS = 200;

export function isSdkBridgeSignal(kind: string): boolean {
  return SDK_KINDS.has(kind);
}

/**
 * A bridge signal as a call in words, the decision or failure and its reason last, e.g.
 * `PreToolUse Bash (tool use toolu_01…) → deny by guard: no rm · 0.2 ms`, `canUseTool Bash (tool use …)
 * → allow`, `permission_denied Bash (tool use …): not allowed`. The generic summary printed the hook's
 * whole input first and cut the decision off.
 */
export function sdkBridgeLine(kind: string, payload: JsonObject): string {
  const tool = text(payload["toolName"]);
  const toolUse = text(payload["toolUseId"]);
  const subject = [kind === "ClaudeHookCall" ? (text(payload["event"]) ?? "hook") : kind === "ClaudePermissionCall" ? "canUseTool" : (text(payload["subtype"]) ?? "event"), tool, toolUse ? `(tool use ${toolUse})` : null]
    .filter(Boolean)
    .join(" ");
  if (kind === "ClaudeQueryEvent") {
    const hookName = text(payload["hookName"]);
    const outcome = text(payload["outcome"]);
    const reason = text(payload["reason"]);
    return [subject, hookName, outcome && outcome !== "denied" ? `· ${outcome}` : null].filter(Boolean).join(" ") + (reason ? `: ${clip(reason)}` : "");
  }
  const outcome = text(payload["outcome"]);
  const callback = text(payload["callback"]);
  const by = callback ? ` by ${callback}` : "";
  const error = objectOf(payload["error"]);
  const ended =
    outcome !== null && outcome !== "returned"
      ? ` ${outcome}${by}${error ? `: ${text(error["name"]) ?? "Error"}: ${clip(text(error["message"]) ?? "")}` : ""}`
      : text(payload["decision"]) !== null
        ? ` → ${text(payload["decision"])}${by}${text(payload["reason"]) ? `: ${clip(text(payload["reason"])!)}` : ""}`
        : callback
          ? ` (${callback})`
          : "";
  const duration = typeof payload["durationMs"] === "number" ? ` · ${formatMs(payload["durationMs"])}` : "";
  return `${subject}${ended}${duration}`;
}

function text(value: JsonValue | undefined): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

function objectOf(value: JsonValue | undefined): JsonObject | null {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? value : null;
}

function clip(value: string): string {
  const line = oneLine(value);
  return line.length > REASON_CHARS ? `${line.slice(0, REASON_CHARS - 1)}…` : line;
}
