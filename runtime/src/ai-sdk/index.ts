/** @hooklens/runtime/ai-sdk: the AI SDK's model calls, steps and tool executions as HookLens signals. */
export { hookLensMiddleware } from "./middleware.js";
export type { HookLensMiddleware, HookLensMiddlewareOptions, WrapOptions } from "./middleware.js";
export { AI_SDK_TRACING_CHANNEL, observeAiSdk } from "./tracingChannel.js";
export type { ObserveAiSdkOptions } from "./tracingChannel.js";
