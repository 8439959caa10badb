import { SDK_BRIDGE_STYLES } from "./sdkBridgeSignals.js";

/**
 * What the view knows about each signal kind the runtime emits: a friendly name for people, and
 * the codicon and theme colour its rows use. Hook signals are keyed by their hook point, other
 * signals by their stable `kind`; anything else (a user's own Signal subclass) falls back to its
 * kind as recorded.
 */
export interface KindStyle {
  /** What people call it, e.g. "tool call blocked". */
  readonly name: string;
  /** A codicon id (`$(…)` without the wrapper). */
  readonly icon: string;
  /** A theme colour id, or null for the default foreground. */
  readonly color: string | null;
}

const ERROR_COLOR = "problemsErrorIcon.foreground";
const WARNING_COLOR = "problemsWarningIcon.foreground";
const DENIAL_COLOR = "charts.orange";
const TOOL_COLOR = "charts.blue";
const MODEL_COLOR = "charts.purple";
const SESSION_COLOR = "charts.green";

const STYLES: Readonly<Record<string, KindStyle>> = {
  // Hook points (HookSignal), as the user registers handlers on them.
  "session.start": { name: "session started", icon: "debug-start", color: SESSION_COLOR },
  "session.end": { name: "session ended", icon: "debug-stop", color: SESSION_COLOR },
  "branch.create": { name: "branch created", icon: "git-branch", color: null },
  "api.pre_call": { name: "before model call", icon: "sparkle", color: MODEL_COLOR },
  "api.post_call": { name: "after model call", icon: "sparkle", color: MODEL_COLOR },
  "api.stream_chunk": { name: "model stream chunk", icon: "sparkle", color: MODEL_COLOR },
  "tool.pre": { name: "before tool call", icon: "tools", color: TOOL_COLOR },
  "tool.post": { name: "after tool call", icon: "check", color: TOOL_COLOR },
  "tool.error": { name: "tool error", icon: "error", color: ERROR_COLOR },
  "message.add": { name: "message hook", icon: "comment", color: null },
  "artifact.created": { name: "artifact created", icon: "file", color: null },
  // Signal kinds (their static `kind`).
  HookSignal: { name: "hook", icon: "symbol-event", color: null },
  Signal: { name: "signal", icon: "pulse", color: null },
  MessageAdded: { name: "message", icon: "comment", color: null },
  GateDenied: { name: "denied by the observer gate", icon: "shield", color: DENIAL_COLOR },
  RunStart: { name: "run started", icon: "play", color: null },
  RunEnd: { name: "run finished", icon: "pass", color: SESSION_COLOR },
  RunFailed: { name: "run failed", icon: "error", color: ERROR_COLOR },
  ToolCallBlocked: { name: "tool call blocked", icon: "shield", color: DENIAL_COLOR },
  HookShortCircuit: { name: "call short-circuited", icon: "shield", color: DENIAL_COLOR },
  GuardrailBlock: { name: "blocked by a guardrail", icon: "shield", color: DENIAL_COLOR },
  ToolCallStarted: { name: "tool call started", icon: "tools", color: TOOL_COLOR },
  ToolCallFinished: { name: "tool call finished", icon: "check", color: TOOL_COLOR },
  ModelCallStarted: { name: "model call started", icon: "sparkle", color: MODEL_COLOR },
  ModelCallFinished: { name: "model call finished", icon: "sparkle", color: MODEL_COLOR },
  ModelStreamChunks: { name: "stream chunks", icon: "list-flat", color: MODEL_COLOR },
  RunEvent: { name: "run event", icon: "bell", color: null },
  SignalsDropped: { name: "signals dropped", icon: "warning", color: WARNING_COLOR },
  ...SDK_BRIDGE_STYLES,
};

/** Every kind key the view has a friendly name for (hook points and signal kinds). */
export const KNOWN_KIND_KEYS: readonly string[] = Object.keys(STYLES);

export function kindStyle(kindKey: string): KindStyle {
  return STYLES[kindKey] ?? { name: kindKey, icon: "pulse", color: null };
}

/** Styles for things that are not single signals. */
export const GROUP_STYLES = {
  tool: { name: "tool call", icon: "tools", color: TOOL_COLOR },
  model: { name: "model call", icon: "sparkle", color: MODEL_COLOR },
  error: { name: "failed", icon: "error", color: ERROR_COLOR },
  denied: { name: "denied", icon: "shield", color: DENIAL_COLOR },
  branch: { name: "branch", icon: "git-branch", color: null },
  session: { name: "session", icon: "symbol-namespace", color: null },
  hookPhase: { name: "hook phase", icon: "symbol-event", color: MODEL_COLOR },
  liveRun: { name: "live run", icon: "debug-start", color: SESSION_COLOR },
  endedRun: { name: "ended run", icon: "debug-stop", color: null },
  recording: { name: "recording", icon: "database", color: null },
  range: { name: "range", icon: "ellipsis", color: null },
} as const satisfies Record<string, KindStyle>;
