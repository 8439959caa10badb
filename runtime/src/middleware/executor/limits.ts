import { getLogger } from "../../shared/log.js";
import type { RunContext } from "../context.js";
import { RunLimitExceeded } from "../errors.js";

/** Per-run caps on the number of calls; a run is one RunContext object. */
export interface RunLimits {
  toolCalls?: number;
  llmCalls?: number;
}

type Counted = keyof RunLimits;

const WHAT: Record<Counted, string> = { toolCalls: "tool calls", llmCalls: "model calls" };

/** Counts calls per run context and refuses the one past the cap. */
export class RunCounter {
  readonly #limits: RunLimits;
  readonly #counts = new WeakMap<RunContext, Record<Counted, number>>();

  constructor(limits: RunLimits = {}) {
    this.#limits = { ...limits };
  }

  /** Counts one call of `what`; throws RunLimitExceeded (after a WARNING) when the run is over its cap. */
  count(ctx: RunContext, what: Counted): void {
    const limit = this.#limits[what];
    if (limit === undefined) return;
    let counts = this.#counts.get(ctx);
    if (counts === undefined) this.#counts.set(ctx, (counts = { toolCalls: 0, llmCalls: 0 }));
    if (counts[what] >= limit) {
      getLogger().warn({ runId: ctx.runId, limit, what }, `run ${ctx.runId} reached its limit of ${limit} ${WHAT[what]}`);
      throw new RunLimitExceeded(WHAT[what], limit, ctx.runId);
    }
    counts[what] += 1;
  }
}
