import { describeValue } from "../shared/arguments.js";
import { isThenable } from "../shared/async.js";
import { InvalidValueError } from "../shared/errors.js";
import { getLogger } from "../shared/log.js";
import { errorKind, isControlFlow, isPolicyOutcome } from "./errorKinds.js";
import type { AfterPhase, BeforePhase, ErrorPhase, Hook, Phase, PhaseInvocation, PhaseResult } from "./hook.js";
import type { LLMInvocation } from "./invocations.js";
import type { LedgerEntry } from "./ledger.js";
import { ShortCircuit } from "./shortCircuit.js";
import type { SignalRecorder } from "./context.js";
import { recordGuardrailBlock, recordShortCircuit } from "./denials.js";

type PhaseFn = (this: Hook, inv: unknown, second: unknown) => unknown;

const enum Mode {
  /** Stop at the first ShortCircuit and return it. */
  FirstShortCircuit,
  /** Thread the result through every hook; a non-null return replaces it. */
  Replace,
  /** Call every hook; ignore what they return. */
  Notify,
}

/**
 * Runs `phase` of every hook in registration order and stops at the first ShortCircuit, which it
 * returns (null when none). Other return values are ignored.
 */
export function runBefore<P extends BeforePhase>(hooks: readonly Hook[], phase: P, inv: PhaseInvocation[P]): Promise<ShortCircuit | null> {
  return dispatch("runBefore(hooks, phase, inv)", hooks, phase, inv, undefined, Mode.FirstShortCircuit) as Promise<ShortCircuit | null>;
}

/**
 * Passes the result through `phase` of every hook in order. A hook returning null/undefined keeps
 * the current result; anything else replaces it for the next hook (a ShortCircuit by its value).
 */
export function runAfter<P extends AfterPhase>(
  hooks: readonly Hook[],
  phase: P,
  inv: PhaseInvocation[P],
  result: PhaseResult[P],
): Promise<PhaseResult[P]> {
  return dispatch("runAfter(hooks, phase, inv, result)", hooks, phase, inv, result, Mode.Replace) as Promise<PhaseResult[P]>;
}

/**
 * Offers the error to `phase` of every hook in order. The first ShortCircuit recovers and is
 * returned; null means nobody recovered and the caller re-throws the original error.
 */
export function runOnError<P extends ErrorPhase>(
  hooks: readonly Hook[],
  phase: P,
  inv: PhaseInvocation[P],
  error: unknown,
): Promise<ShortCircuit | null> {
  return dispatch("runOnError(hooks, phase, inv, error)", hooks, phase, inv, error, Mode.FirstShortCircuit) as Promise<ShortCircuit | null>;
}

/** Tells every hook that a model call ended, with the ledger entry it recorded or null. */
export async function runOnLlmEnd(hooks: readonly Hook[], inv: LLMInvocation, billed: LedgerEntry | null): Promise<void> {
  await dispatch("runOnLlmEnd(hooks, inv, billed)", hooks, "onLlmEnd", inv, billed, Mode.Notify);
}

interface HasContext {
  readonly ctx: { readonly signal: AbortSignal | undefined; readonly signals?: SignalRecorder | null };
}

const PHASES: ReadonlySet<string> = new Set<Phase>([
  "beforeTool", "afterTool", "onToolError", "beforeLlm", "afterLlm", "onLlmError", "onLlmEnd", "beforeNode", "afterNode", "onNodeError",
]);

/** What a JavaScript caller can get wrong, checked per call with typeofs only (every tool and model call dispatches). */
function checkCall(where: string, hooks: readonly Hook[], phase: Phase, inv: HasContext): void {
  if (!Array.isArray(hooks)) throw new InvalidValueError(`${where}: hooks must be an array of Hooks, got ${describeValue(hooks)}`);
  if (!PHASES.has(phase)) throw new InvalidValueError(`${where}: phase must be one of ${[...PHASES].join(", ")}, got ${describeValue(phase)}`);
  if (typeof inv !== "object" || inv === null || typeof inv.ctx !== "object" || inv.ctx === null) {
    throw new InvalidValueError(`${where}: inv must be an invocation (a ToolInvocation, LLMInvocation or NodeInvocation with its ctx), got ${describeValue(inv)}`);
  }
}

/**
 * The one dispatch loop. Sync hooks are called without an await (a promise is awaited only when a
 * hook returns one), and the try/catch stays inline, where it costs nothing.
 */
async function dispatch(where: string, hooks: readonly Hook[], phase: Phase, inv: HasContext, second: unknown, mode: Mode): Promise<unknown> {
  checkCall(where, hooks, phase, inv);
  let current = second;
  for (const hook of hooks) {
    if (typeof hook !== "object" || hook === null) throw new InvalidValueError(`${where}: each hook must be an object (a Hook), got ${describeValue(hook)}`);
    const fn = hook[phase] as PhaseFn | undefined;
    if (fn === undefined) continue;
    if (typeof fn !== "function") throw new InvalidValueError(`${where}: ${typeof hook.name === "string" ? `hook ${hook.name}'s` : "a hook's"} ${phase} must be a function, got ${describeValue(fn)}`);
    let out: unknown;
    try {
      out = fn.call(hook, inv, current);
      if (isThenable(out)) out = await out;
    } catch (error) {
      reportHookFailure(hook, phase, inv, error);
      recordGuardrailBlock(hook, phase, inv, error);
      throw error;
    }
    if (mode === Mode.Replace) {
      if (out !== undefined && out !== null) current = out instanceof ShortCircuit ? out.value : out;
    } else if (mode === Mode.FirstShortCircuit && out instanceof ShortCircuit) {
      if (second === undefined) recordShortCircuit(hook, phase, inv);
      return out;
    }
  }
  return mode === Mode.Replace ? current : null;
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
