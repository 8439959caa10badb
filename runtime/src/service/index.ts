// The service scope: per-model hooks around provider calls. Nothing here needs a Session.
export { EventStatus, ALLOWED_EVENT_STATUSES, TERMINAL_EVENT_STATUSES, isEventStatus } from "./eventStatus.js";
export { EventExecution, MAX_RECORDED_ERRORS } from "./execution.js";
export type { ExecutionDict } from "./execution.js";
export { Event, classNameOf } from "./event.js";
export type { EventClass, EventDict, EventInit, InvokeOptions } from "./event.js";
export { isCancellation } from "./cancellation.js";
export { HookValidationError, MissingHookHandlerError, HookPhaseError, HookTimeoutError, StreamClosedError } from "./errors.js";
export { HookEventTypes, ALLOWED_HOOKS_TYPES, Undefined } from "./hookTypes.js";
export type {
  AssociatedEventInfo,
  ChunkCallResult,
  ChunkClass,
  HookDict,
  HookEventTypesLike,
  HookKey,
  HookParams,
  HookPhaseResult,
  PhaseCallResult,
  PhaseHookHandler,
  StreamHandler,
  StreamHandlerEntry,
  StreamHandlers,
} from "./hookTypes.js";
export { normalizeHookKey } from "./hookValidation.js";
export { HookRegistry } from "./hookRegistry.js";
export type { ChunkCallOptions, HookCallParams, HookRegistryInit, PhaseCallOptions } from "./hookRegistry.js";
export { HookEvent, DEFAULT_HOOK_TIMEOUT } from "./hookEvent.js";
export type { HookEventDict, HookEventInit } from "./hookEvent.js";
export { HookLog, globalHookLog, HOOK_LOG_CAPACITY } from "./hookLog.js";
export type { HookLogOptions } from "./hookLog.js";
export { HookedEvent } from "./hookedEvent.js";
export type { HookAttachOptions } from "./hookedEvent.js";
export type { Endpoint, EndpointCallOptions, EndpointPayload, EndpointRequest } from "./endpoint.js";
export {
  EndpointError,
  EndpointHttpError,
  EndpointResponseError,
  EndpointStreamError,
  EndpointConnectionError,
  EndpointTimeoutError,
} from "./endpointErrors.js";
export { readTokenUsage } from "./tokenUsage.js";
export type { TokenUsage } from "./tokenUsage.js";
export { parseServerSentEvents } from "./sse.js";
export type { ServerSentEvent } from "./sse.js";
export { OpenAIChatEndpoint, DEFAULT_OPENAI_BASE_URL, DEFAULT_API_KEY_ENV, DEFAULT_ENDPOINT_TIMEOUT_MS } from "./openAIChatEndpoint.js";
export type { OpenAIChatEndpointOptions } from "./openAIChatEndpoint.js";
export { ScriptedEndpoint } from "./scriptedEndpoint.js";
export type { ScriptedEndpointOptions, ScriptedTurn } from "./scriptedEndpoint.js";
export { APICalling } from "./apiCalling.js";
export type { APICallingDict, APICallingInit } from "./apiCalling.js";
export { IModel, DEFAULT_CREATE_EVENT_HOOK_TIMEOUT, DEFAULT_INVOKE_HOOK_TIMEOUT } from "./iModel.js";
export type { CreateEventOptions, HookedEventClass, IModelOptions, ModelCallOptions, StreamingProcessFunc } from "./iModel.js";
