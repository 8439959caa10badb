import { GuardrailBlock, HookShortCircuit } from "../session/auditSignals.js";
import { describeError } from "../session/describe.js";
import { getLogger } from "../shared/log.js";
import { GuardrailBlocked } from "./errors.js";
import type { Hook, Phase } from "./hook.js";
import { ToolInvocation } from "./invocations.js";
import type { SignalRecorder } from "./context.js";

interface WithContext {
  readonly ctx: { readonly signals?: SignalRecorder | null };
}

/** A before-phase ShortCircuit skipped the call: record it when the run context has somewhere to record. */
export function recordShortCircuit(hook: Hook, phase: Phase, inv: WithContext): void {
  const signals = inv.ctx.signals;
  if (!signals) return;
  record(signals, new HookShortCircuit({ ...callOf(inv), reason: `skipped by a ShortCircuit from ${hook.name}.${phase}`, hook: `${hook.name}.${phase}` }));
}

/** A guardrail refused the payload: record it (other policy outcomes and hook bugs are not denials of this kind). */
export function recordGuardrailBlock(hook: Hook, phase: Phase, inv: WithContext, error: unknown): void {
  const signals = inv.ctx.signals;
  if (!signals || !(error instanceof GuardrailBlocked)) return;
  const call = callOf(inv);
  record(signals, new GuardrailBlock({ toolName: call.toolName ?? error.tool, callId: call.callId, reason: error.reason, hook: `${hook.name}.${phase}` }));
}

function callOf(inv: WithContext): { toolName: string | null; callId: string | null } {
  return inv instanceof ToolInvocation ? { toolName: inv.spec.name, callId: inv.call.id } : { toolName: null, callId: null };
}

function record(signals: SignalRecorder, signal: HookShortCircuit | GuardrailBlock): void {
  try {
    void Promise.resolve(signals.emit(signal)).catch((error: unknown) => logFailure(error));
  } catch (error) {
    logFailure(error);
  }
}

function logFailure(error: unknown): void {
  getLogger().error({ err: error }, `Could not record a denied call: ${describeError(error)}`);
}
