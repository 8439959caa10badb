export { Tool } from "./tool.js";
export type { ToolOptions, ToolCallable, Preprocessor, Postprocessor, McpClient, McpToolConfig } from "./tool.js";
export type { ToolSchema, JsonSchemaObject, RequestOptions } from "./toolSchema.js";
export { FunctionCalling } from "./functionCalling.js";
export type { Execution, FunctionCallingStatus } from "./functionCalling.js";
export { ActionManager } from "./actionManager.js";
export type { ToolLike, RegisterOptions } from "./actionManager.js";
export { readEnvelope } from "./actionRequest.js";
export type { ActionEnvelope, ActionRequestLike } from "./actionRequest.js";
export { PermissionError, ConfigurationError, ToolArgumentsError, NotSupportedError } from "./errors.js";
export { isPlainObject } from "./objects.js";
export type { ToolArgs } from "./objects.js";
export { summarize, SUMMARY_LIMIT } from "./summary.js";
export type { ToolPreHook, ToolPostHook, ToolErrorHook, ToolHook } from "./hookTypes.js";
export { HooksMixin, AgentSpec } from "./spec.js";
export type { AgentSpecOptions, McpServer, McpToolInfo } from "./spec.js";
export { chainPreHooks, chainPostHooks } from "./chains.js";
export type { PreHookChain, PostHookChain } from "./chains.js";
export {
  toolHooks,
  attachHooks,
  applyPermissions,
  registerCodingTools,
  registerAgentTools,
  standaloneTool,
  loadMcpTools,
  equipAgent,
  createAgent,
} from "./factory.js";
export type { ToolHost, HookPhase } from "./factory.js";
export { PermissionPolicy } from "./permissions.js";
export type {
  PermissionMode,
  PermissionBehavior,
  PermissionRules,
  PermissionDecision,
  PermissionPolicyOptions,
  EscalationHandler,
} from "./permissions.js";
export { guardDestructive, guardPaths, PATH_ARGUMENT_NAMES } from "./guards.js";
export type { GuardPathsOptions } from "./guards.js";
export { fnmatch } from "./fnmatch.js";
export { autoFormat, autoFormatTypeScript, AUTO_FORMAT_TIMEOUT_MS } from "./autoFormat.js";
export type { AutoFormatOptions } from "./autoFormat.js";
export { runArgv } from "./subprocess.js";
export type { RunArgvOptions, RunArgvResult } from "./subprocess.js";
export { CodingToolkit, ALL_CODING_TOOLS, DEFAULT_CODING_TOOLS, codingToolDefinition } from "./coding/toolkit.js";
export type { CodingToolkitOptions, CodingToolName } from "./coding/toolkit.js";
export type { CodingToolDefinition } from "./coding/definition.js";
export { Workspace, OutsideWorkspaceError } from "./coding/workspace.js";
export { NudgeEngine } from "./coding/nudge.js";
export { splitCommand, ShellSyntaxError } from "./coding/shellWords.js";
export { ReaderRequest } from "./coding/reader.js";
export { EditorRequest } from "./coding/editor.js";
export { BashRequest, DEFAULT_BASH_TIMEOUT_MS } from "./coding/bash.js";
export { DEFAULT_PATTERN_TIMEOUT_MS } from "./coding/search.js";
export type { SearchToolOptions } from "./coding/search.js";
export type { BashToolOptions } from "./coding/bash.js";
export { SearchRequest } from "./coding/search.js";
export { act, actAll, GOVERNANCE_DENIAL } from "./act.js";
export type { ActionResponseModel, ActingBranch, ActOptions, ActAllOptions, ActStrategy } from "./act.js";
