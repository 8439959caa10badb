export { HookPoint, DORMANT_HOOK_POINTS, normalizePoint } from "./hookPoint.js";
export type { HookPointLike } from "./hookPoint.js";
export { StopHook } from "./stopHook.js";
export { hook, markedPoint, HOOK_POINT } from "./hook.js";
export type { MarkedHandler } from "./hook.js";
export { HookBus } from "./hookBus.js";
export type { HookHandler, HookSignalRecorder } from "./hookBus.js";
export type { HookPayload, HookPayloadMap, PayloadOf } from "./payloads.js";
export {
  Signal,
  HookSignal,
  MessageAdded,
  GateDenied,
  RunStart,
  RunEnd,
  RunFailed,
  SIGNAL_SCHEMA_VERSION,
  signalKind,
} from "./signal.js";
export type { SignalInit, RunUsage } from "./signal.js";
export { ToolCallBlocked, HookShortCircuit, GuardrailBlock } from "./auditSignals.js";
export type { DeniedCall } from "./auditSignals.js";
export {
  ToolCallStarted,
  ToolCallFinished,
  ModelCallStarted,
  ModelCallFinished,
  ModelStreamChunks,
  RunEvent,
  callError,
} from "../signals/callSignals.js";
export type {
  CallError,
  CallSource,
  ModelCallFinishInit,
  ModelCallStartInit,
  RunRef,
  ServiceHookRun,
  StreamHandlerRun,
  ToolCallFinishInit,
  ToolCallStartInit,
  ToolCallStatus,
} from "../signals/callSignals.js";
export type { SignalRecorder } from "../signals/signalRecorder.js";
export { buildRunEnd } from "./runEnd.js";
export {
  Filter,
  TypeFilter,
  SpecFilter,
  AllOfFilter,
  RoleFilter,
  RoleKeyFilter,
  AS_FILTER,
  asFilter,
  ofType,
  where,
} from "./filters.js";
export type { Constructor, FilterSource, ObserveKey, Predicate } from "./filters.js";
export { FieldRef, field } from "./fieldRef.js";
export { Flow } from "./flow.js";
export { SessionObserver } from "./observer.js";
export type { SessionObserverOptions } from "./observer.js";
export type {
  Gate,
  MatchOf,
  ObserveFunction,
  ObserveOptions,
  ObserverContext,
  ObserverDecorator,
  ObserverHandler,
  RouteCondition,
} from "./observeTypes.js";
export { sanitizeSignalPayload, encodeSignalPayload, capPayload, toJsonSafe, PAYLOAD_BYTE_CAP } from "./serialize.js";
export { encodeSignal } from "./pipeline/encodedSignal.js";
export type { EncodedSignal } from "./pipeline/encodedSignal.js";
export type { SignalSink, SinkTarget } from "./pipeline/sink.js";
export { flushSignals, queuedSignals } from "./pipeline/signalPipeline.js";
export { OTEL_ENV } from "./pipeline/environmentOtel.js";
export { OTEL_ENVIRONMENT_RECORDER } from "../signals/environmentRecorder.js";
export { configureSignals, signalSettings, DEFAULT_SIGNAL_SETTINGS } from "./pipeline/signalSettings.js";
export type { SignalSettings } from "./pipeline/signalSettings.js";
export type { JsonObject, JsonValue, TruncatedPayload } from "./serialize.js";
export { Message } from "./message.js";
export type { MessageInit, MessageRole } from "./message.js";
export { MessageManager, AsyncCallbackOnSyncPathError, isAsyncFunction } from "./messageManager.js";
export type { MessageCallback } from "./messageManager.js";
export { ToolCallAction } from "./toolCallAction.js";
export { Branch } from "./branch.js";
export type { BranchOptions } from "./branch.js";
export { Session } from "./session.js";
export type { SessionOptions } from "./session.js";
export {
  DEFAULT_HOOKS,
  registerHandler,
  resolveHandler,
  registeredHandlerNames,
  loadHooksForAgent,
  buildSessionBus,
} from "./loader.js";
export type { AgentHooks, AnyHookHandler } from "./loader.js";
export {
  persistSessionStart,
  persistSessionEnd,
  persistBranchProvenance,
  persistMessage,
  logApiMetrics,
  logToolCall,
  logToolUse,
} from "./builtins.js";
export type {
  ApiMetricsPayload,
  BranchProvenancePayload,
  PersistMessagePayload,
  SessionEndPayload,
  SessionStartPayload,
  ToolCallLogPayload,
} from "./builtins.js";
export { routeMessagePersistence, unrouteMessagePersistence } from "./persist.js";
export type { MessageRouteHandler } from "./persist.js";
