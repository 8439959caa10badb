export { Hook } from "./hook.js";
export type { AfterPhase, BeforePhase, ErrorPhase, HookPhases, NodeUpdate, Phase, PhaseInvocation, PhaseResult } from "./hook.js";
export { ShortCircuit } from "./shortCircuit.js";
export { ToolInvocation, LLMInvocation, NodeInvocation } from "./invocations.js";
export type { Invocation } from "./invocations.js";
export { runBefore, runAfter, runOnError, runOnLlmEnd } from "./dispatch.js";
export { createRunContext } from "./context.js";
export type { RunContext, RunContextOptions, RunEventListener, SignalRecorder } from "./context.js";
export { ToolResult, toolCall } from "./calls.js";
export type { ToolArguments, ToolCall, ToolResultInit, ToolSpec, ToolStatus } from "./calls.js";
export type { LLMMessage, LLMRequest, LLMResponse, LLMUsage } from "./llm.js";
export {
  ApprovalDenied,
  BudgetExceeded,
  ConfigError,
  GuardrailBlocked,
  PolicyOutcome,
  RunLimitExceeded,
  ToolUsageError,
} from "./errors.js";
export type { BudgetScope, GuardrailStage } from "./errors.js";
export { CIRCULAR, DEFAULT_REDACT, REDACTED, redact } from "./redact.js";
export { Ledger } from "./ledger.js";
export type { LedgerEntry, LedgerFilter, LedgerRecord, ModelPrice, PriceTable } from "./ledger.js";
export { LoggingHook } from "./builtins/logging.js";
export type { LoggingEvent, LoggingHookOptions } from "./builtins/logging.js";
export { BudgetHook } from "./builtins/budget.js";
export type { BudgetConfig, OnExceed } from "./builtins/budget.js";
export { DEFAULT_BLOCK_REASON, GUARDRAIL_STAGES, GuardrailHook } from "./builtins/guardrail.js";
export type { GuardrailCheck } from "./builtins/guardrail.js";
export { Rate } from "./rateLimit/rate.js";
export { RateBuckets } from "./rateLimit/buckets.js";
export type { Booking } from "./rateLimit/buckets.js";
export { LLM_KIND, RateLimitHook } from "./rateLimit/rateLimitHook.js";
export type { RateLimitHookOptions } from "./rateLimit/rateLimitHook.js";
export type { Clock, Sleep } from "./rateLimit/timing.js";
export { Executor } from "./executor/executor.js";
export type { ExecutorOptions, ToolCallInput } from "./executor/executor.js";
export type { FlowNode, ModelClient, ToolBackend } from "./executor/backends.js";
export type { Approval, ApprovalDecision } from "./executor/approval.js";
export { MemoryToolCache, cacheKey } from "./executor/cache.js";
export type { ToolCache } from "./executor/cache.js";
export type { RunLimits } from "./executor/limits.js";
export { BranchTools } from "./executor/branchTools.js";
export type { ToolMeta } from "./executor/branchTools.js";
export { IModelClient } from "./executor/imodelClient.js";
