import { Signal, type SignalInit } from "./signal.js";
import { requireObject } from "../shared/arguments.js";
import type { SourceLocation } from "../shared/definitionSite.js";

/** What every denied call records: the call, why, and which hook decided. */
export interface DeniedCall {
  /** The tool's name; null for a model or flow-node call. */
  toolName: string | null;
  /** The flow of a flow node a middleware hook denied (`NodeInvocation.flow`); null or absent for any other call. */
  flowName?: string | null;
  /** That flow node's name (`NodeInvocation.node`); null or absent for any other call. */
  nodeName?: string | null;
  /** The call's id; null when the call never got one. */
  callId: string | null;
  /** Why it was denied: the blocking error's message, the guardrail's reason, or what replaced the call. */
  reason: string;
  /** Which hook decided, e.g. `tool.pre:guardDestructive` or `GuardrailHook.beforeTool`. */
  hook: string;
  /** Where the program defined that hook (registered the handler, made the Hook), when known. */
  location?: SourceLocation | null;
}

/** A denied call as a signal of its own kind: these are audit records, not hook executions. */
abstract class DeniedCallSignal extends Signal<null> implements DeniedCall {
  declare readonly toolName: string | null;
  declare readonly flowName: string | null;
  declare readonly nodeName: string | null;
  declare readonly callId: string | null;
  declare readonly reason: string;
  declare readonly hook: string;
  declare readonly location: SourceLocation | null;

  constructor(call: DeniedCall, init: SignalInit<null> = {}) {
    super(init);
    requireObject(call, `new ${new.target.name}(call, init)`, "call ({ toolName, callId, reason, hook })");
    this.toolName = call.toolName;
    // Null for a tool or model call: the stores and the live frame leave null fields out, so
    // those rows read exactly as before these fields existed.
    this.flowName = call.flowName ?? null;
    this.nodeName = call.nodeName ?? null;
    this.callId = call.callId;
    this.reason = call.reason;
    this.hook = call.hook;
    this.location = call.location ?? null;
  }
}

/**
 * A TOOL_PRE handler blocked a tool call by throwing. The bus records no HookSignal for a chain
 * that failed (that rule stands); this separate audit signal is what makes the denial visible.
 */
export class ToolCallBlocked extends DeniedCallSignal {
  static override readonly kind: string = "ToolCallBlocked";
}

/** A middleware hook's ShortCircuit skipped a call (before a tool, model or node call ran). */
export class HookShortCircuit extends DeniedCallSignal {
  static override readonly kind: string = "HookShortCircuit";
}

/** A GuardrailHook refused a payload (arguments, result, model request or response). */
export class GuardrailBlock extends DeniedCallSignal {
  static override readonly kind: string = "GuardrailBlock";
}
