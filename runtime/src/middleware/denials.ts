import { GuardrailBlock, HookShortCircuit, type DeniedCall } from "../session/auditSignals.js";
import { definitionSiteOf } from "../shared/definitionSite.js";
import { recordTo } from "../signals/signalRecorder.js";
import { GuardrailBlocked } from "./errors.js";
import type { Hook, Phase } from "./hook.js";
import { LLMInvocation, NodeInvocation, ToolInvocation } from "./invocations.js";
import type { SignalRecorder } from "./context.js";

interface WithContext {
  readonly ctx: { readonly signals?: SignalRecorder | null };
}

/** The recorded call id of each model call the Executor records, so a denial of it names that call. */
const modelCallIds = new WeakMap<LLMInvocation, string>();

/** The Executor records `inv` as call `callId`: a guardrail block or ShortCircuit of it will name it. */
export function nameModelCall(inv: LLMInvocation, callId: string): void {
  modelCallIds.set(inv, callId);
}

/** A before-phase ShortCircuit skipped the call: record it when the run context has somewhere to record. */
export function recordShortCircuit(hook: Hook, phase: Phase, inv: WithContext): void {
  const signals = inv.ctx.signals;
  if (!signals) return;
  recordTo(signals, new HookShortCircuit({ ...callOf(inv), reason: `skipped by a ShortCircuit from ${hook.name}.${phase}`, hook: `${hook.name}.${phase}`, location: definitionSiteOf(hook) }));
}

/** A guardrail refused the payload: record it (other policy outcomes and hook bugs are not denials of this kind). */
export function recordGuardrailBlock(hook: Hook, phase: Phase, inv: WithContext, error: unknown): void {
  const signals = inv.ctx.signals;
  if (!signals || !(error instanceof GuardrailBlocked)) return;
  const call = callOf(inv);
  recordTo(signals, new GuardrailBlock({ ...call, toolName: call.toolName ?? error.tool, reason: error.reason, hook: `${hook.name}.${phase}`, location: definitionSiteOf(hook) }));
}

/** The denied call as the signal names it: a tool call, a model call, or a flow node (which has no call id). */
function callOf(inv: WithContext): Pick<DeniedCall, "toolName" | "callId" | "flowName" | "nodeName"> {
  if (inv instanceof ToolInvocation) return { toolName: inv.spec.name, callId: inv.call.id };
  if (inv instanceof NodeInvocation) return { toolName: null, callId: null, flowName: inv.flow, nodeName: inv.node };
  return { toolName: null, callId: inv instanceof LLMInvocation ? (modelCallIds.get(inv) ?? null) : null };
}
