/**
 * Dispatch of all nine middleware phases (before/after/on-error × tool, llm, node) through four
 * hooks, against calling the same hook methods directly in a plain loop. Two hook sets: four
 * trivial hooks (the dispatcher's own cost) and the four built-ins (logging to a silent logger,
 * a budget over a ledger, a guardrail on every stage, a rate limit whose kinds have no rate).
 */
import { BudgetHook } from "../../runtime/src/middleware/builtins/budget.js";
import { GuardrailHook } from "../../runtime/src/middleware/builtins/guardrail.js";
import { LoggingHook } from "../../runtime/src/middleware/builtins/logging.js";
import { ToolResult } from "../../runtime/src/middleware/calls.js";
import { createRunContext } from "../../runtime/src/middleware/context.js";
import { runAfter, runBefore, runOnError } from "../../runtime/src/middleware/dispatch.js";
import { Hook, type HookPhases, type NodeUpdate } from "../../runtime/src/middleware/hook.js";
import { LLMInvocation, NodeInvocation, ToolInvocation } from "../../runtime/src/middleware/invocations.js";
import { Ledger } from "../../runtime/src/middleware/ledger.js";
import type { LLMResponse } from "../../runtime/src/middleware/llm.js";
import { Rate } from "../../runtime/src/middleware/rateLimit/rate.js";
import { RateLimitHook } from "../../runtime/src/middleware/rateLimit/rateLimitHook.js";
import type { Logger } from "../../runtime/src/shared/log.js";
import { measure, report } from "./measure.js";

let sink = 0;
const silent: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

const ctx = createRunContext({ runId: "bench", threadId: "t", ledger: new Ledger() });
const toolInv = new ToolInvocation(
  { name: "lookup", kind: "lookup", confirm: false, cacheable: false, schema: null },
  { id: "c", name: "lookup", arguments: { key: "k" } },
  ctx,
);
const llmInv = new LLMInvocation({ messages: [{ role: "user", content: "hi" }] }, "scripted", "m", ctx);
const nodeInv = new NodeInvocation("flow", "node", { a: 1 }, ctx);
const result = new ToolResult({ callId: "c", tool: "lookup", status: "ok", value: 42 });
const response: LLMResponse = { content: "ok", finishReason: "stop", usage: { inputTokens: 1, outputTokens: 1 } };
const update: NodeUpdate = { a: 2 };
const failure = new Error("bench");

function trivialHook(): Hook {
  const touch = (): void => void sink++;
  const phases: Required<Omit<HookPhases, "onLlmEnd">> = {
    beforeTool: touch,
    afterTool: touch,
    onToolError: touch,
    beforeLlm: touch,
    afterLlm: touch,
    onLlmError: touch,
    beforeNode: touch,
    afterNode: touch,
    onNodeError: touch,
  };
  return Object.assign(new Hook(), phases);
}

function builtIns(): Hook[] {
  return [
    new LoggingHook({ logger: silent }),
    new BudgetHook(1_000),
    new GuardrailHook(() => true, { on: ["args", "result", "llm_request", "llm_response"] }),
    new RateLimitHook({ other: new Rate(1, 1) }),
  ];
}

async function dispatchNine(hooks: readonly Hook[]): Promise<void> {
  await runBefore(hooks, "beforeTool", toolInv);
  await runAfter(hooks, "afterTool", toolInv, result);
  await runOnError(hooks, "onToolError", toolInv, failure);
  await runBefore(hooks, "beforeLlm", llmInv);
  await runAfter(hooks, "afterLlm", llmInv, response);
  await runOnError(hooks, "onLlmError", llmInv, failure);
  await runBefore(hooks, "beforeNode", nodeInv);
  await runAfter(hooks, "afterNode", nodeInv, update);
  await runOnError(hooks, "onNodeError", nodeInv, failure);
}

/** The same methods called directly: a loop over the hooks per phase, nothing awaited. */
function directNine(hooks: readonly Hook[]): void {
  for (const h of hooks) h.beforeTool?.(toolInv);
  for (const h of hooks) h.afterTool?.(toolInv, result);
  for (const h of hooks) h.onToolError?.(toolInv, failure);
  for (const h of hooks) h.beforeLlm?.(llmInv);
  for (const h of hooks) h.afterLlm?.(llmInv, response);
  for (const h of hooks) h.onLlmError?.(llmInv, failure);
  for (const h of hooks) h.beforeNode?.(nodeInv);
  for (const h of hooks) h.afterNode?.(nodeInv, update);
  for (const h of hooks) h.onNodeError?.(nodeInv, failure);
}

export async function run(): Promise<string> {
  const trivial = [trivialHook(), trivialHook(), trivialHook(), trivialHook()];
  const builtins = builtIns();
  const directTrivial = await measure("direct calls", () => directNine(trivial));
  const dispatchTrivial = await measure("dispatch", () => dispatchNine(trivial));
  const directBuiltins = await measure("direct calls", () => directNine(builtins));
  const dispatchBuiltins = await measure("dispatch", () => dispatchNine(builtins));
  const none = await measure("no hooks", () => dispatchNine([]));
  const out = report("Middleware dispatch: nine phases × 4 hooks vs calling the hook methods directly", [
    { label: "9 phases, 4 trivial hooks", subject: dispatchTrivial, baseline: directTrivial },
    { label: "9 phases, the 4 built-ins", subject: dispatchBuiltins, baseline: directBuiltins },
    { label: "9 phases, no hooks (vs 4 trivial, direct)", subject: none, baseline: directTrivial },
  ]);
  return sink > 0 ? out : out;
}
