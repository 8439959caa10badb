import { getCurrentSpan } from "@openai/agents";
import type { SpanSignals } from "./spanSignals.js";

/** A listener as the SDK's emitter types it (its argument list depends on the event). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Listener = (...args: any[]) => void;

/** What the bridge uses of a `Runner`: its lifecycle emitter (`RunHooks`). */
export interface RunnerLike {
  on(event: "agent_tool_start", listener: Listener): unknown;
  off(event: "agent_tool_start", listener: Listener): unknown;
}

interface RunContextLike {
  isToolApproved?(approval: { toolName: string; callId: string }): boolean | undefined;
}

/**
 * Listens to a runner's `agent_tool_start`: the one fact its lifecycle events carry that no span
 * does is that a human approved the call (`context.isToolApproved`), recorded as an `approval`
 * run event on the tool call's span (the SDK emits the event inside it). The listener is
 * synchronous and cannot throw: an exception in an EventEmitter listener propagates into the run.
 * Returns the function that removes it.
 */
export function listenToRunner(runner: RunnerLike, spans: SpanSignals): () => void {
  const listener = (context: RunContextLike, _agent: unknown, tool: { name?: unknown }, details: { toolCall?: { callId?: unknown } }): void => {
    try {
      const callId = details?.toolCall?.callId;
      const toolName = tool?.name;
      if (typeof callId !== "string" || typeof toolName !== "string") return;
      if (context?.isToolApproved?.({ toolName, callId }) !== true) return;
      const span = getCurrentSpan();
      if (span) spans.toolApproved(span.spanId, span.traceId, toolName, callId);
    } catch {
      // Never into the run.
    }
  };
  runner.on("agent_tool_start", listener);
  return () => void runner.off("agent_tool_start", listener);
}
