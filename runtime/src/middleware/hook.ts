import { noteDefinitionSite } from "../shared/definitionSite.js";
import type { ToolResult } from "./calls.js";
import type { LLMInvocation, NodeInvocation, ToolInvocation } from "./invocations.js";
import type { LedgerEntry } from "./ledger.js";
import type { LLMResponse } from "./llm.js";
import type { ShortCircuit } from "./shortCircuit.js";

type Awaitable<T> = T | PromiseLike<T>;
/** "Nothing to say": keep going (before), keep the result (after), re-throw (on error). */
type Pass = null | undefined | void;

/** The keys a node returns to merge into the flow state. */
export type NodeUpdate = Readonly<Record<string, unknown>>;

/** The ten optional phases a middleware hook may implement; each may be sync or async. */
export interface HookPhases {
  beforeTool?(inv: ToolInvocation): Awaitable<ShortCircuit | Pass>;
  afterTool?(inv: ToolInvocation, result: ToolResult): Awaitable<ToolResult | Pass>;
  onToolError?(inv: ToolInvocation, error: unknown): Awaitable<ShortCircuit | Pass>;
  beforeLlm?(inv: LLMInvocation): Awaitable<ShortCircuit | Pass>;
  afterLlm?(inv: LLMInvocation, response: LLMResponse): Awaitable<LLMResponse | Pass>;
  onLlmError?(inv: LLMInvocation, error: unknown): Awaitable<ShortCircuit | Pass>;
  /** Runs once per model call however it ended, with the ledger entry it recorded or null. */
  onLlmEnd?(inv: LLMInvocation, billed: LedgerEntry | null): Awaitable<Pass>;
  beforeNode?(inv: NodeInvocation<object>): Awaitable<ShortCircuit | Pass>;
  afterNode?(inv: NodeInvocation<object>, update: NodeUpdate): Awaitable<NodeUpdate | Pass>;
  onNodeError?(inv: NodeInvocation<object>, error: unknown): Awaitable<ShortCircuit | Pass>;
}

// Declaration merging gives the class the optional phase methods, so a subclass overrides only
// the phases it needs and dispatch skips the hooks that lack a phase.
export interface Hook extends HookPhases {}

/**
 * Middleware around every tool call, model call and flow node. Subclass it and implement the
 * phases you need; any object with a `name` and some phases works the same way.
 */
export class Hook {
  /** Shown in dispatch logs; defaults to the class name. */
  name: string = this.constructor.name;

  constructor() {
    // Where the program made it (or declared its subclass): denials it decides point there.
    noteDefinitionSite(this);
  }
}

export type BeforePhase = "beforeTool" | "beforeLlm" | "beforeNode";
export type AfterPhase = "afterTool" | "afterLlm" | "afterNode";
export type ErrorPhase = "onToolError" | "onLlmError" | "onNodeError";
export type Phase = BeforePhase | AfterPhase | ErrorPhase | "onLlmEnd";

/** The invocation each phase receives. */
export interface PhaseInvocation {
  beforeTool: ToolInvocation;
  afterTool: ToolInvocation;
  onToolError: ToolInvocation;
  beforeLlm: LLMInvocation;
  afterLlm: LLMInvocation;
  onLlmError: LLMInvocation;
  onLlmEnd: LLMInvocation;
  beforeNode: NodeInvocation<object>;
  afterNode: NodeInvocation<object>;
  onNodeError: NodeInvocation<object>;
}

/** The result an `after*` phase receives and may replace. */
export interface PhaseResult {
  afterTool: ToolResult;
  afterLlm: LLMResponse;
  afterNode: NodeUpdate;
}
