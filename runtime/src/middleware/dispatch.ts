import { isThenable } from "../shared/async.js";
import { getLogger } from "../shared/log.js";
import { errorKind, isControlFlow, isPolicyOutcome } from "./errorKinds.js";
import type { AfterPhase, BeforePhase, ErrorPhase, Hook, Phase, PhaseInvocation, PhaseResult } from "./hook.js";
import type { LLMInvocation } from "./invocations.js";
import type { LedgerEntry } from "./ledger.js";
import { ShortCircuit } from "./shortCircuit.js";

type PhaseFn = (this: Hook, ...args: unknown[]) => unknown;

/**
 * Runs `phase` of every hook in registration order and stops at the first ShortCircuit, which it
 * returns (null when none). Other return values are ignored.
 */
export async function runBefore<P extends BeforePhase>(
  hooks: readonly Hook[],
  phase: P,
  inv: PhaseInvocation[P],
): Promise<ShortCircuit | null> {
  for (const hook of hooks) {
    const fn = hook[phase] as PhaseFn | undefined;
    if (fn === undefined) continue;
    let out = callPhase(hook, fn, phase, inv, undefined);
    if (isThenable(out)) out = await out;
    if (out instanceof ShortCircuit) return out;
  }
  return null;
}

/**
 * Passes the result through `phase` of every hook in order. A hook returning null/undefined keeps
 * the current result; anything else replaces it for the next hook (a ShortCircuit by its value).
 */
export async function runAfter<P extends AfterPhase>(
  hooks: readonly Hook[],
  phase: P,
  inv: PhaseInvocation[P],
  result: PhaseResult[P],
): Promise<PhaseResult[P]> {
  let current: unknown = result;
  for (const hook of hooks) {
    const fn = hook[phase] as PhaseFn | undefined;
    if (fn === undefined) continue;
    let out = callPhase(hook, fn, phase, inv, current);
    if (isThenable(out)) out = await out;
    if (out !== undefined && out !== null) current = out instanceof ShortCircuit ? out.value : out;
  }
  return current as PhaseResult[P];
}

/**
 * Offers the error to `phase` of every hook in order. The first ShortCircuit recovers and is
 * returned; null means nobody recovered and the caller re-throws the original error.
 */
export async function runOnError<P extends ErrorPhase>(
  hooks: readonly Hook[],
  phase: P,
  inv: PhaseInvocation[P],
  error: unknown,
): Promise<ShortCircuit | null> {
  for (const hook of hooks) {
    const fn = hook[phase] as PhaseFn | undefined;
    if (fn === undefined) continue;
    let out = callPhase(hook, fn, phase, inv, error);
    if (isThenable(out)) out = await out;
    if (out instanceof ShortCircuit) return out;
  }
  return null;
}

/** Tells every hook that a model call ended, with the ledger entry it recorded or null. */
export async function runOnLlmEnd(hooks: readonly Hook[], inv: LLMInvocation, billed: LedgerEntry | null): Promise<void> {
  for (const hook of hooks) {
    const fn = hook.onLlmEnd as PhaseFn | undefined;
    if (fn === undefined) continue;
    const out = callPhase(hook, fn, "onLlmEnd", inv, billed);
    if (isThenable(out)) await out;
  }
}

interface HasContext {
  readonly ctx: { readonly signal: AbortSignal | undefined };
}

/**
 * Calls one phase with its failure reported on the way out, sync or async. The `before*` phases
 * take only the invocation; the others also take the result, the error or the billed entry.
 */
function callPhase(hook: Hook, fn: PhaseFn, phase: Phase, inv: HasContext, second: unknown): unknown {
  let out: unknown;
  try {
    out = fn.call(hook, inv, second);
  } catch (error) {
    reportHookFailure(hook, phase, inv, error);
    throw error;
  }
  if (!isThenable(out)) return out;
  return Promise.resolve(out).catch((error: unknown) => {
    reportHookFailure(hook, phase, inv, error);
    throw error;
  });
}

/**
 * Logs a hook's failure before it propagates: cancellation not at all, a policy outcome as one
 * DEBUG line (the hook that decided it logged its own WARNING), anything else at ERROR with the
 * error's type only (a message could quote secrets).
 */
function reportHookFailure(hook: Hook, phase: Phase, inv: HasContext, error: unknown): void {
  if (isControlFlow(error, inv.ctx.signal)) return;
  const kind = errorKind(error);
  const fields = { hook: hook.name, phase, errorKind: kind };
  if (isPolicyOutcome(error)) getLogger().debug(fields, `hook ${hook.name}.${phase} stopped the call: ${kind}`);
  else getLogger().error(fields, `hook ${hook.name}.${phase} raised ${kind}`);
}
