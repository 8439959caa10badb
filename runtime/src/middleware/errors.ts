import { HookLensError, InvalidValueError } from "../shared/errors.js";

/**
 * A deliberate "no" from a policy (spend cap, guardrail, approval, run limit). Dispatch treats
 * these as outcomes rather than bugs: one DEBUG line there, because the deciding hook or the
 * executor already logged its own WARNING.
 */
export class PolicyOutcome extends HookLensError {
  override name = "PolicyOutcome";
}

export type BudgetScope = "run" | "thread" | "global";

/** Spend reached the cap of a `BudgetHook` with `onExceed: "stop"`. */
export class BudgetExceeded extends PolicyOutcome {
  override name = "BudgetExceeded";
  readonly limitUsd: number;
  readonly spentUsd: number;
  readonly scope: BudgetScope;
  readonly runId: string;

  constructor(limitUsd: number, spentUsd: number, options: { scope: BudgetScope; runId: string; detail?: string }) {
    super(`budget of $${limitUsd} (${options.scope}) reached: spent $${spentUsd}` + (options.detail ? `; ${options.detail}` : ""));
    this.limitUsd = limitUsd;
    this.spentUsd = spentUsd;
    this.scope = options.scope;
    this.runId = options.runId;
  }
}

export type GuardrailStage = "args" | "result" | "llm_request" | "llm_response";

/** A guardrail check rejected a payload. `tool` is null at the two model stages. */
export class GuardrailBlocked extends PolicyOutcome {
  override name = "GuardrailBlocked";
  readonly reason: string;
  readonly tool: string | null;
  readonly stage: GuardrailStage;

  constructor(reason: string, options: { tool: string | null; stage: GuardrailStage }) {
    super(reason);
    this.reason = reason;
    this.tool = options.tool;
    this.stage = options.stage;
  }
}

/** A confirm tool was refused by the approval callback, or no approval callback exists. */
export class ApprovalDenied extends PolicyOutcome {
  override name = "ApprovalDenied";
  readonly tool: string;

  constructor(tool: string, reason: string) {
    super(`approval denied for ${tool}: ${reason}`);
    this.tool = tool;
  }
}

/** A run made more calls of one kind than the executor allows. */
export class RunLimitExceeded extends PolicyOutcome {
  override name = "RunLimitExceeded";
  readonly limit: number;
  readonly runId: string;

  constructor(what: string, limit: number, runId: string) {
    super(`run ${runId} reached its limit of ${limit} ${what}`);
    this.limit = limit;
    this.runId = runId;
  }
}

/** A hook or tool was used against its contract (a check returning a non-verdict, an unknown tool). */
export class ToolUsageError extends HookLensError {
  override name = "ToolUsageError";
}

/** A built-in's configuration has an unknown key or a bad value. */
export class ConfigError extends InvalidValueError {
  override name = "ConfigError";
}
