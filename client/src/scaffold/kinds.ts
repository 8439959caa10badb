// What can be scaffolded, with the facts each choice needs. Pure data: no VS Code API, so the
// templates, the argument schema and the prompts all read the same table.
import type { HookPoint } from "@hooklens/runtime";

export const SCAFFOLD_KINDS = ["session", "servicePhase", "serviceStream", "tool", "middleware"] as const;
export type ScaffoldKind = (typeof SCAFFOLD_KINDS)[number];

export interface KindInfo {
  label: string;
  description: string;
  detail: string;
}

export const KIND_INFO: Readonly<Record<ScaffoldKind, KindInfo>> = {
  session: {
    label: "Session HookBus handler",
    description: "bus.on(HookPoint.…, handler)",
    detail: "Ordered chain per HookPoint on session.hooks: guards and persistence (tool.pre can block a tool call).",
  },
  servicePhase: {
    label: "Service phase hook",
    description: "HookRegistry / IModel: pre_event_create, pre_invocation, post_invocation",
    detail: "One handler per phase around every provider call of a model, with or without a Session.",
  },
  serviceStream: {
    label: "Service stream handler",
    description: "StreamHandler: (event: null, chunkType, chunk, params)",
    detail: "Sees (and may replace) every streamed chunk of a given type.",
  },
  tool: {
    label: "Tool hooks (AgentSpec)",
    description: "spec.pre / spec.post, failures on HookPoint.TOOL_ERROR",
    detail: "Rewrite or refuse a tool's arguments, rewrite its object result, and react to its failures where they are emitted.",
  },
  middleware: {
    label: "Middleware Hook subclass",
    description: "class … extends Hook { beforeTool, afterTool, onToolError, … }",
    detail: "Runs around every tool call, model call and flow node an Executor makes.",
  },
};

/** A hook point's value, as the runtime spells it ("tool.pre"). */
export type HookPointValue = `${HookPoint}`;

export interface HookPointInfo {
  /** The enum member's name: HookPoint.<member>. */
  member: keyof typeof HookPoint;
  /** Declared but never emitted by the runtime: a handler there never runs. */
  dormant: boolean;
  /** When it fires (live points) or what to use instead (dormant points). */
  summary: string;
  /** The payload's fields, for the generated comment. */
  fields: readonly string[];
}

// Typed against the runtime's enum, so a point added or renamed there fails the typecheck here;
// a unit test compares `dormant` with the runtime's DORMANT_HOOK_POINTS.
export const HOOK_POINTS: Readonly<Record<HookPointValue, HookPointInfo>> = {
  "session.start": { member: "SESSION_START", dormant: false, summary: "when a session begins", fields: ["sessionId", "model", "provider", "agentName"] },
  "session.end": { member: "SESSION_END", dormant: false, summary: "when a session ends, with its status and usage", fields: ["sessionId", "status", "error", "inputTokens", "outputTokens", "durationMs"] },
  "branch.create": { member: "BRANCH_CREATE", dormant: false, summary: "when a branch is created", fields: ["branchId", "model", "provider", "agentName"] },
  "tool.pre": { member: "TOOL_PRE", dormant: false, summary: "before a tool call runs", fields: ["toolName", "callId", "argsSummary"] },
  "tool.post": { member: "TOOL_POST", dormant: false, summary: "after a tool call succeeded", fields: ["toolName", "callId", "resultSummary", "duration"] },
  "tool.error": { member: "TOOL_ERROR", dormant: false, summary: "after a tool call failed (bad arguments, or the tool or a processor threw)", fields: ["toolName", "callId", "error", "duration"] },
  "message.add": { member: "MESSAGE_ADD", dormant: false, summary: "when a message is added to a branch", fields: ["branchId", "message"] },
  "api.pre_call": { member: "API_PRE_CALL", dormant: true, summary: "use a service pre_invocation hook (registry.preInvoke) instead", fields: [] },
  "api.post_call": { member: "API_POST_CALL", dormant: true, summary: "use a service post_invocation hook (registry.postInvoke) instead", fields: [] },
  "api.stream_chunk": { member: "API_STREAM_CHUNK", dormant: true, summary: "use a service stream handler instead", fields: [] },
  "artifact.created": { member: "ARTIFACT_CREATED", dormant: true, summary: "call your code where the artifact is produced instead", fields: [] },
};

export const HOOK_POINT_VALUES = Object.keys(HOOK_POINTS) as HookPointValue[];
export const LIVE_HOOK_POINTS = HOOK_POINT_VALUES.filter((point) => !HOOK_POINTS[point].dormant);

/** The kind to scaffold instead of a dormant point, when there is one. */
export const DORMANT_ALTERNATIVE: Readonly<Partial<Record<HookPointValue, { kind: ScaffoldKind; phase?: ServicePhase }>>> = {
  "api.pre_call": { kind: "servicePhase", phase: "pre_invocation" },
  "api.post_call": { kind: "servicePhase", phase: "post_invocation" },
  "api.stream_chunk": { kind: "serviceStream" },
};

export const SERVICE_PHASES = ["pre_event_create", "pre_invocation", "post_invocation"] as const;
export type ServicePhase = (typeof SERVICE_PHASES)[number];

export interface ServicePhaseInfo {
  /** The HookRegistry method that registers a handler for the phase. */
  method: "preEventCreateHook" | "preInvoke" | "postInvoke";
  summary: string;
}

export const SERVICE_PHASE_INFO: Readonly<Record<ServicePhase, ServicePhaseInfo>> = {
  pre_event_create: { method: "preEventCreateHook", summary: "before the call's event is built; gets the event class, its return value is ignored" },
  pre_invocation: { method: "preInvoke", summary: "before the provider call; throwing blocks the call whatever the exit policy" },
  post_invocation: { method: "postInvoke", summary: "after the provider answered (or failed), before the response is recorded" },
};

export const MIDDLEWARE_PHASES = [
  "beforeTool",
  "afterTool",
  "onToolError",
  "beforeLlm",
  "afterLlm",
  "onLlmError",
  "onLlmEnd",
  "beforeNode",
  "afterNode",
  "onNodeError",
] as const;
export type MiddlewarePhase = (typeof MIDDLEWARE_PHASES)[number];

export const DEFAULT_MIDDLEWARE_PHASES: readonly MiddlewarePhase[] = ["beforeTool", "afterTool", "onToolError"];
