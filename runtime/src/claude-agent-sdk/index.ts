/** @hooklens/runtime/claude-agent-sdk: every Claude Agent SDK hook and permission callback, seen as signals. */
export { withHookLens } from "./withHookLens.js";
export type { HookLensOptions } from "./withHookLens.js";
export { observeQuery } from "./observeQuery.js";
export { ClaudeHookCall, ClaudePermissionCall, ClaudeQueryEvent } from "./signals.js";
export type { CallbackCallInit, CallbackError, CallbackOutcome, HookCallInit } from "./signals.js";
