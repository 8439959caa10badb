/**
 * Attribute names from the OpenTelemetry GenAI semantic conventions (and the general `session.id`
 * and `error.type`), plus HookLens's own under `hooklens.*` for what those conventions do not cover.
 */
export const GEN_AI = {
  operationName: "gen_ai.operation.name",
  providerName: "gen_ai.provider.name",
  requestModel: "gen_ai.request.model",
  responseModel: "gen_ai.response.model",
  finishReasons: "gen_ai.response.finish_reasons",
  inputTokens: "gen_ai.usage.input_tokens",
  outputTokens: "gen_ai.usage.output_tokens",
  conversationId: "gen_ai.conversation.id",
  agentName: "gen_ai.agent.name",
  agentId: "gen_ai.agent.id",
  toolName: "gen_ai.tool.name",
  toolCallId: "gen_ai.tool.call.id",
  toolCallArguments: "gen_ai.tool.call.arguments",
  toolCallResult: "gen_ai.tool.call.result",
  inputMessages: "gen_ai.input.messages",
  outputMessages: "gen_ai.output.messages",
} as const;

export const GEN_AI_OPERATION = {
  chat: "chat",
  executeTool: "execute_tool",
  invokeAgent: "invoke_agent",
} as const;

export const ERROR_TYPE = "error.type";
export const SESSION_ID = "session.id";

export const HOOKLENS = {
  sessionId: "hooklens.session.id",
  sessionStatus: "hooklens.session.status",
  costUsd: "hooklens.cost_usd",
  branchId: "hooklens.branch.id",
  runId: "hooklens.run.id",
  threadId: "hooklens.thread.id",
  source: "hooklens.call.source",
  toolStatus: "hooklens.tool.status",
  durationMs: "hooklens.duration_ms",
  denialReason: "hooklens.denial.reason",
  denialHook: "hooklens.denial.hook",
  denialKind: "hooklens.denial.kind",
  /** The flow and node a middleware hook skipped (a node has no span: the event sits on the run's or the session's span). */
  flowName: "hooklens.flow.name",
  flowNode: "hooklens.flow.node",
  hookPoint: "hooklens.hook.point",
  hookType: "hooklens.service_hook.type",
  hookStatus: "hooklens.service_hook.status",
  hookError: "hooklens.service_hook.error",
  streamHandlerChunkType: "hooklens.stream_handler.chunk_type",
  streamChunks: "hooklens.stream.chunks",
  streamChunksFirstAt: "hooklens.stream.first_chunk_at",
  stopKind: "hooklens.stop.kind",
  stopReason: "hooklens.stop.reason",
  runEvent: "hooklens.run_event",
  unfinished: "hooklens.unfinished",
  /** An SDK bridge's callback call: the hook event, matcher, callback name, stated decision and how it ended. */
  sdkHookEvent: "hooklens.sdk.hook.event",
  sdkMatcher: "hooklens.sdk.hook.matcher",
  sdkCallback: "hooklens.sdk.callback",
  sdkDecision: "hooklens.sdk.decision",
  sdkOutcome: "hooklens.sdk.outcome",
} as const;
