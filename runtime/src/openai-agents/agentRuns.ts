/** Past this many open spans, new ones are not followed (a program that never ends its spans must not grow the bridge without bound). */
export const MAX_OPEN_SPANS = 10_000;

/** What the bridge remembers of an open span: the agent (branch) it belongs to. */
export interface OpenSpan {
  /** The branch id of the agent run the span is part of: its own id for an agent span; null outside any agent. */
  readonly branchId: string | null;
  /** The agent's name (for an agent span, its own). */
  readonly agentName: string | null;
  /** For a function span: whether its ToolCallStarted was recorded yet. */
  started: boolean;
}

/**
 * The agents of the runs in flight: which agent span each open span sits under (a function span
 * under a turn span under an agent span), and which agent handed off last in each trace, so the
 * agent it handed to is recorded as nested in it. Bounded: spans are forgotten when they end,
 * traces when they end, and past {@link MAX_OPEN_SPANS} nothing new is followed.
 */
export class AgentRuns {
  readonly #spans = new Map<string, OpenSpan>();
  /** traceId → branch id of the agent whose handoff is the latest in that trace. */
  readonly #handoffs = new Map<string, string>();
  /** Spans not followed because too many were open. */
  skipped = 0;

  get(spanId: string): OpenSpan | undefined {
    return this.#spans.get(spanId);
  }

  /** Follows a span that starts under `parentId`; null when the bound is reached. */
  open(spanId: string, parentId: string | null, own: { branchId: string; agentName: string } | null): OpenSpan | null {
    if (this.#spans.size >= MAX_OPEN_SPANS) {
      this.skipped++;
      return null;
    }
    const parent = parentId === null ? undefined : this.#spans.get(parentId);
    const span: OpenSpan = own
      ? { branchId: own.branchId, agentName: own.agentName, started: false }
      : { branchId: parent?.branchId ?? null, agentName: parent?.agentName ?? null, started: false };
    this.#spans.set(spanId, span);
    return span;
  }

  close(spanId: string): OpenSpan | undefined {
    const span = this.#spans.get(spanId);
    this.#spans.delete(spanId);
    return span;
  }

  /** The branch an agent starting under `parentId` in `traceId` nests in: the agent that handed off to it, else the agent around its parent span (an agent run as a tool). */
  parentBranchOf(traceId: string, parentId: string | null): string | null {
    const handedOff = this.#handoffs.get(traceId);
    if (handedOff !== undefined) {
      this.#handoffs.delete(traceId);
      return handedOff;
    }
    return parentId === null ? null : (this.#spans.get(parentId)?.branchId ?? null);
  }

  handedOff(traceId: string, fromBranchId: string | null): void {
    if (fromBranchId !== null && this.#handoffs.size < MAX_OPEN_SPANS) this.#handoffs.set(traceId, fromBranchId);
  }

  traceEnded(traceId: string): void {
    this.#handoffs.delete(traceId);
  }
}
