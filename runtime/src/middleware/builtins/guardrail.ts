import { optionsObject, requireFunction } from "../../shared/arguments.js";
import { isThenable } from "../../shared/async.js";
import { getLogger } from "../../shared/log.js";
import type { ToolResult } from "../calls.js";
import { ConfigError, GuardrailBlocked, ToolUsageError, type GuardrailStage } from "../errors.js";
import { Hook } from "../hook.js";
import type { LLMInvocation, ToolInvocation } from "../invocations.js";
import type { LLMResponse } from "../llm.js";

/** `true` passes; `false` or a reason string blocks. Sync or async. */
export type GuardrailCheck = (stage: GuardrailStage, payload: unknown) => boolean | string | PromiseLike<boolean | string>;

export const GUARDRAIL_STAGES: readonly GuardrailStage[] = Object.freeze(["args", "result", "llm_request", "llm_response"]);

/** The reason given when a check returns `false`. */
export const DEFAULT_BLOCK_REASON = "rejected by guardrail check";

/**
 * Runs `check(stage, payload)` at the stages listed in `on` (default: the tool arguments) and
 * throws `GuardrailBlocked` when it rejects. Stages: `args` (before a tool, the validated
 * arguments), `result` (after a tool, the value of an ok result), `llm_request` and
 * `llm_response` (before and after a model call).
 */
export class GuardrailHook extends Hook {
  override name = "guardrail";
  readonly #check: GuardrailCheck;
  readonly #stages: ReadonlySet<GuardrailStage>;

  constructor(check: GuardrailCheck, options: { on?: readonly GuardrailStage[] } = {}) {
    requireFunction(check, "new GuardrailHook(check, options)", "check");
    options = optionsObject(options, "new GuardrailHook(check, options)");
    super();
    const on = options.on ?? ["args"];
    if (!Array.isArray(on)) throw new ConfigError("GuardrailHook `on` must be an array of stages");
    for (const stage of on) {
      if (!GUARDRAIL_STAGES.includes(stage)) {
        throw new ConfigError(`unknown guardrail stage ${JSON.stringify(stage)}; expected one of ${GUARDRAIL_STAGES.join(", ")}`);
      }
    }
    this.#check = check;
    this.#stages = new Set(on);
  }

  beforeTool(inv: ToolInvocation): void | Promise<void> {
    if (this.#stages.has("args")) return this.#run("args", inv.call.arguments, inv.spec.name);
  }

  afterTool(inv: ToolInvocation, result: ToolResult): void | Promise<void> {
    // A failed result carries an error report, not tool output: nothing to vet.
    if (this.#stages.has("result") && result.ok) return this.#run("result", result.value, inv.spec.name);
  }

  beforeLlm(inv: LLMInvocation): void | Promise<void> {
    if (this.#stages.has("llm_request")) return this.#run("llm_request", inv.request, null);
  }

  afterLlm(_inv: LLMInvocation, response: LLMResponse): void | Promise<void> {
    if (this.#stages.has("llm_response")) return this.#run("llm_response", response, null);
  }

  #run(stage: GuardrailStage, payload: unknown, tool: string | null): void | Promise<void> {
    const verdict = this.#check(stage, payload);
    if (isThenable(verdict)) return Promise.resolve(verdict).then((v) => this.#judge(v, stage, tool));
    this.#judge(verdict, stage, tool);
  }

  #judge(verdict: unknown, stage: GuardrailStage, tool: string | null): void {
    if (verdict === true) return;
    if (verdict !== false && typeof verdict !== "string") {
      throw new ToolUsageError(`guardrail check must return true, false or a reason string; got ${describe(verdict)}`);
    }
    const reason = verdict === false ? DEFAULT_BLOCK_REASON : verdict;
    // The reason may quote the payload, so only the stage and tool reach the WARNING line.
    getLogger().warn({ hook: this.name, stage, tool }, `guardrail blocked ${stage}${tool === null ? "" : ` of ${tool}`}`);
    getLogger().debug({ hook: this.name, stage, tool, reason }, `guardrail reason: ${reason}`);
    throw new GuardrailBlocked(reason, { tool, stage });
  }
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object" || typeof value === "function") return `a ${typeof value}`;
  return `${typeof value} ${String(value)}`;
}
