import { RunEvent } from "../signals/callSignals.js";
import type { SignalRecorder } from "../signals/signalRecorder.js";
import { record } from "./record.js";

/** What the bridge reads of a `RunResult` / `StreamedRunResult` (or a run error's `state`). */
export interface RunResultLike {
  readonly interruptions?: readonly unknown[];
  readonly toolInputGuardrailResults?: readonly unknown[];
  readonly toolOutputGuardrailResults?: readonly unknown[];
  readonly lastAgent?: { readonly name?: unknown } | undefined;
}

/**
 * What a run reports only on its result, as of `@openai/agents` 0.20: the tool calls waiting for
 * a human's approval (`interruptions`) and the verdicts of tool guardrails (which run inside the
 * tool call and leave no span or lifecycle event). Each becomes a `RunEvent`: `approval` with
 * `approved: null` (requested), or `guardrail` with the guardrail's `behavior`.
 */
export function recordResult(signals: SignalRecorder, result: RunResultLike): void {
  try {
    const agent = typeof result.lastAgent?.name === "string" ? result.lastAgent.name : null;
    for (const item of result.interruptions ?? []) recordApprovalRequest(signals, item as ApprovalItemLike);
    for (const verdict of [...(result.toolInputGuardrailResults ?? []), ...(result.toolOutputGuardrailResults ?? [])]) {
      recordToolGuardrail(signals, verdict as ToolGuardrailResultLike, agent);
    }
  } catch {
    // A result of a shape this bridge does not know: nothing recorded, nothing raised.
  }
}

interface ApprovalItemLike {
  readonly rawItem?: { readonly name?: unknown; readonly callId?: unknown; readonly arguments?: unknown };
  readonly agent?: { readonly name?: unknown };
  readonly toolName?: unknown;
}

interface ToolGuardrailResultLike {
  readonly guardrail?: { readonly type?: unknown; readonly name?: unknown };
  readonly output?: { readonly behavior?: { readonly type?: unknown; readonly message?: unknown } };
}

function recordApprovalRequest(signals: SignalRecorder, item: ApprovalItemLike): void {
  const raw = item.rawItem ?? {};
  const callId = typeof raw.callId === "string" ? raw.callId : "unknown";
  const payload = {
    tool: typeof item.toolName === "string" ? item.toolName : typeof raw.name === "string" ? raw.name : null,
    toolCallId: callId,
    approved: null,
    agent: typeof item.agent?.name === "string" ? item.agent.name : null,
    arguments: typeof raw.arguments === "string" ? raw.arguments : null,
  };
  record(signals, new RunEvent({ event: "approval", runId: callId, payload }));
}

function recordToolGuardrail(signals: SignalRecorder, verdict: ToolGuardrailResultLike, agent: string | null): void {
  const behavior = verdict.output?.behavior;
  const type = typeof behavior?.type === "string" ? behavior.type : "allow";
  const payload = {
    guardrail: typeof verdict.guardrail?.name === "string" ? verdict.guardrail.name : null,
    stage: typeof verdict.guardrail?.type === "string" ? verdict.guardrail.type : null,
    triggered: type !== "allow",
    behavior: type,
    message: typeof behavior?.message === "string" ? behavior.message : null,
    agent,
  };
  record(signals, new RunEvent({ event: "guardrail", runId: payload.guardrail ?? "tool guardrail", payload }));
}
