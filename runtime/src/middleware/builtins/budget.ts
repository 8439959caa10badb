import { z } from "zod";
import { getLogger } from "../../shared/log.js";
import type { RunContext } from "../context.js";
import { BudgetExceeded, ConfigError, type BudgetScope } from "../errors.js";
import { Hook } from "../hook.js";
import type { LLMInvocation, ToolInvocation } from "../invocations.js";
import type { LedgerEntry } from "../ledger.js";
import { optionsObject } from "../../shared/arguments.js";

export type OnExceed = "stop" | "warn";

/** The knobs an optimiser may turn. */
export interface BudgetConfig {
  maxUsd: number;
  onExceed: OnExceed;
  scope: BudgetScope;
}

const budgetConfigSchema = z
  .object({
    maxUsd: z.number().finite().nonnegative(),
    onExceed: z.enum(["stop", "warn"]),
    scope: z.enum(["run", "thread", "global"]),
  })
  .strict();

/**
 * Caps model spend. Before each tool and model call it reads the run context's ledger (the run,
 * the thread or everything) and, once spend is at or over `maxUsd`, either throws
 * `BudgetExceeded` ("stop") or warns once per run and emits `budget.warning` ("warn").
 */
export class BudgetHook extends Hook {
  override name = "budget";
  readonly #config: BudgetConfig;
  readonly #warnedRuns = new Set<string>();
  #warnedNoLedger = false;

  constructor(maxUsd: number, options: { onExceed?: OnExceed; scope?: BudgetScope } = {}) {
    super();
    optionsObject(options, "new BudgetHook(maxUsd, options)");
    this.#config = parseConfig({ maxUsd, onExceed: options.onExceed
 ?? "stop", scope: options.scope ?? "run" });
  }

  beforeTool(inv: ToolInvocation): void {
    this.#check(inv.ctx);
  }

  beforeLlm(inv: LLMInvocation): void {
    this.#check(inv.ctx);
  }

  /** In warn mode, the call that crosses the cap warns at once instead of at the next call. */
  onLlmEnd(inv: LLMInvocation, billed: LedgerEntry | null): void {
    if (billed !== null && this.#config.onExceed === "warn") this.#check(inv.ctx);
  }

  /** The current configuration (a copy). */
  config(): BudgetConfig {
    return { ...this.#config };
  }

  /** The zod schema of a complete configuration; unknown keys are rejected. */
  configSchema(): typeof budgetConfigSchema {
    return budgetConfigSchema;
  }

  /** A new hook with some settings changed; throws ConfigError on an unknown key or a bad value. */
  withConfig(changes: Partial<BudgetConfig>): BudgetHook {
    const next = parseConfig({ ...this.#config, ...changes });
    return new BudgetHook(next.maxUsd, { onExceed: next.onExceed, scope: next.scope });
  }

  #check(ctx: RunContext): void {
    const ledger = ctx.ledger;
    if (ledger === null) {
      if (!this.#warnedNoLedger) {
        this.#warnedNoLedger = true;
        getLogger().warn({ hook: this.name }, "BudgetHook has no ledger in the run context; spend is not capped");
      }
      return;
    }
    // An empty thread id cannot select a conversation: read the run instead.
    const scope: BudgetScope = this.#config.scope === "thread" && ctx.threadId === "" ? "run" : this.#config.scope;
    const runId = scope === "run" ? ctx.runId : null;
    const filter = scope === "thread" ? { threadId: ctx.threadId } : {};
    const spentUsd = ledger.totalUsd(runId, filter);
    // Fail closed: a call with no known cost may have spent anything.
    const unpriced = ledger.unpricedCount(runId, filter);
    const limitUsd = this.#config.maxUsd;
    if (spentUsd < limitUsd && unpriced === 0) return;

    const detail = unpriced > 0 ? `${unpriced} model call(s) in scope have no known cost` : undefined;
    const fields = { hook: this.name, scope, limitUsd, spentUsd, runId: ctx.runId, unpriced };
    if (this.#config.onExceed === "stop") {
      getLogger().warn(fields, `budget reached: $${spentUsd} of $${limitUsd} (${scope}); stopping`);
      throw new BudgetExceeded(limitUsd, spentUsd, { scope, runId: ctx.runId, detail });
    }
    if (this.#warnedRuns.has(ctx.runId)) return;
    this.#warnedRuns.add(ctx.runId);
    getLogger().warn(fields, `budget reached: $${spentUsd} of $${limitUsd} (${scope}); continuing`);
    ctx.emit("budget.warning", { limitUsd, spentUsd, scope });
  }
}

function parseConfig(candidate: Record<string, unknown>): BudgetConfig {
  const parsed = budgetConfigSchema.safeParse(candidate);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message));
  throw new ConfigError(`invalid BudgetHook config: ${issues.join("; ")}`);
}
