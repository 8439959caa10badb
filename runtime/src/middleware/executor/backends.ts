import type { ToolCall, ToolResult, ToolSpec } from "../calls.js";
import type { RunContext } from "../context.js";
import type { LLMRequest, LLMResponse } from "../llm.js";

/**
 * Where the executor finds tools and runs them. The runtime's implementation goes through the
 * Tool scope's `act()`, so every Tool-scope hook (governance, HookBus TOOL_PRE/POST/ERROR,
 * pre- and postprocessors) runs inside the middleware's call step.
 */
export interface ToolBackend {
  /** The spec of a registered tool, or undefined. */
  spec(name: string): ToolSpec | undefined;
  /** Runs a validated call. Resolves with the result (ok, or a reported failure); rejects when the call failed. */
  run(call: ToolCall, spec: ToolSpec, ctx: RunContext): Promise<ToolResult>;
}

/** A model the executor can call: in the runtime, an `IModel` over an endpoint. */
export interface ModelClient {
  readonly provider: string;
  readonly model: string;
  /** `call.callId` names the Executor's recorded call, so a client that records its own (an IModel) can nest under it. */
  complete(request: LLMRequest, signal?: AbortSignal, call?: { readonly callId: string }): Promise<LLMResponse>;
}

/** One step of a flow: reads the state and returns the keys it updates. */
export interface FlowNode<S extends object = Record<string, unknown>> {
  readonly name: string;
  run(
    state: Readonly<S>,
    ctx: RunContext,
  ): Readonly<Record<string, unknown>> | void | PromiseLike<Readonly<Record<string, unknown>> | void>;
}
