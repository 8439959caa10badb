import type { HookPoint, HookPointLike } from "./hookPoint.js";

/** What the runtime passes at each production emit site (Python keyword arguments, camelCased). */
export interface HookPayloadMap {
  "session.start": {
    sessionId: string;
    model?: string | null;
    provider?: string | null;
    effort?: string | null;
    agentName?: string | null;
    /** Not in the as-built payload: an agent id a program may add (the OpenTelemetry export's `gen_ai.agent.id`). */
    agentId?: string | null;
    agentHash?: string | null;
    invocationId?: string | null;
  };
  "session.end": {
    sessionId: string;
    status?: string;
    error?: unknown;
    inputTokens?: number;
    outputTokens?: number;
    totalCostUsd?: number;
    numTurns?: number;
    durationMs?: number;
  };
  "branch.create": {
    branchId: string;
    model?: string | null;
    provider?: string | null;
    agentName?: string | null;
    /** Not in the as-built payload: an agent id a program may add (the OpenTelemetry export's `gen_ai.agent.id`). */
    agentId?: string | null;
  };
  "tool.pre": { toolName: string; callId: string; argsSummary: string };
  "tool.post": { toolName: string; callId: string; resultSummary: string; duration: number };
  "tool.error": { toolName: string; callId: string; error: unknown; duration: number | null };
  "message.add": { branchId: string; message: unknown };
}

/** Free-form payload: the dormant points have no emit site and so no payload contract. */
export type HookPayload = Record<string, unknown>;

/** The payload a handler on point `P` receives. */
export type PayloadOf<P extends HookPointLike> = `${P}` extends keyof HookPayloadMap
  ? HookPayloadMap[`${P}`]
  : HookPayload;

export type PointValue = `${HookPoint}`;
