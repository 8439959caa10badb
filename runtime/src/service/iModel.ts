import { optionsObject, requireObject } from "../shared/arguments.js";
import { performance } from "node:perf_hooks";
import { isThenable } from "../shared/async.js";
import { epochSeconds, epochSecondsAt } from "../shared/clock.js";
import { InvalidValueError } from "../shared/errors.js";
import { APICalling } from "./apiCalling.js";
import { isCancellation } from "./cancellation.js";
import type { Endpoint, EndpointPayload } from "./endpoint.js";
import { HookPhaseError } from "./errors.js";
import type { EventClass } from "./event.js";
import { HOOK_CREATED_AT, HookedEvent, runHook } from "./hookedEvent.js";
import { ASSOCIATE_EVENT, ENDED_AT_MS, HookEvent } from "./hookEvent.js";
import { globalHookLog } from "./hookLog.js";
import { HookRegistry, type HookRegistryInit } from "./hookRegistry.js";
import { HookEventTypes, type ChunkClass } from "./hookTypes.js";
import { keyName } from "./hookValidation.js";
import { IModelCallRecord } from "./modelCallRecord.js";
import { rememberPreCreateHook } from "./preCreateHooks.js";
import type { SignalRecorder } from "../signals/signalRecorder.js";
import { environmentRecorder } from "../signals/environmentRecorder.js";
import { RecorderChoice } from "../signals/activeSession.js";
import { newId } from "../shared/ids.js";

/** Default seconds of the pre-event-create hook. */
export const DEFAULT_CREATE_EVENT_HOOK_TIMEOUT = 10;
/** Default seconds of the pre- and post-invoke hooks. */
export const DEFAULT_INVOKE_HOOK_TIMEOUT = 30;

/** Turns a stream chunk into what the caller receives; null/undefined keep the chunk. */
export type StreamingProcessFunc = (chunk: unknown) => unknown;

export interface IModelOptions {
  endpoint: Endpoint;
  /** A registry (shared as is), or `{ hooks, streamHandlers }` to build one. Default: a fresh registry. */
  hookRegistry?: HookRegistry | HookRegistryInit | null;
  /** The exit policy every phase falls back to. Default false. */
  exitHook?: boolean;
  streamingProcessFunc?: StreamingProcessFunc | null;
  providerMetadata?: Record<string, unknown> | null;
  id?: string;
  createdAt?: number;
  /**
   * Where each `invoke`/`stream` is recorded as ModelCallStarted / ModelCallFinished signals (a
   * SessionObserver, Session or Branch). Default: the active session (the Session made last in the
   * process, at the time of the call); with none, not recorded, unless `HOOKLENS_OTEL` is on, which
   * gives the model an observer of its own (its id is the model's). `null`: never recorded.
   */
  signals?: SignalRecorder | null;
}

/** A HookedEvent class a model can build: `new type(requestFields)`. */
export type HookedEventClass = new (init: Record<string, unknown>) => HookedEvent;

/**
 * The per-phase options of `createEvent`. Every key not listed here is a request field passed to
 * `endpoint.createPayload` (e.g. `model`, `messages`, `temperature`, `stream`), plus
 * `cacheControl` and `callOptions` for the APICalling. Timeouts are in seconds.
 */
export interface CreateEventOptions {
  [requestField: string]: unknown;
  createEventType?: typeof APICalling | HookedEventClass | EventClass;
  createEventExitHook?: boolean | null;
  createEventHookTimeout?: number | null;
  createEventHookParams?: Record<string, unknown> | null;
  preInvokeEventExitHook?: boolean | null;
  preInvokeEventHookTimeout?: number | null;
  preInvokeEventHookParams?: Record<string, unknown> | null;
  postInvokeEventExitHook?: boolean | null;
  postInvokeEventHookTimeout?: number | null;
  postInvokeEventHookParams?: Record<string, unknown> | null;
  /** Cancels the pre-event-create hook. */
  signal?: AbortSignal;
}

/** `invoke`/`stream` options: a prepared `apiCall`, or the options to create one, and a cancel signal. */
export interface ModelCallOptions extends CreateEventOptions {
  apiCall?: APICalling;
  /** The recorded call this one runs inside (the Executor's model call); recorded on ModelCallStarted. */
  parentCallId?: string;
}

const PRE_EVENT_CREATE = Object.freeze({ hookType: HookEventTypes.PreEventCreate });
const PRE_INVOCATION = Object.freeze({ hookType: HookEventTypes.PreInvocation });
const POST_INVOCATION = Object.freeze({ hookType: HookEventTypes.PostInvocation });

const OPTION_KEYS = new Set([
  "createEventType",
  "createEventExitHook",
  "createEventHookTimeout",
  "createEventHookParams",
  "preInvokeEventExitHook",
  "preInvokeEventHookTimeout",
  "preInvokeEventHookParams",
  "postInvokeEventExitHook",
  "postInvokeEventHookTimeout",
  "postInvokeEventHookParams",
  "signal",
  "apiCall",
  "parentCallId",
]);

/**
 * A model endpoint with its own service hooks; it needs no Session. `createEvent` runs the
 * pre-event-create hook, builds the APICalling and attaches pre/post hook events for the phases
 * the registry handles. `invoke` resolves with the finished APICalling; `stream` yields chunks,
 * each passed through the registry's stream handler (or `streamingProcessFunc`) first.
 */
export class IModel {
  readonly id: string;
  readonly createdAt: number;
  readonly endpoint: Endpoint;
  readonly hookRegistry: HookRegistry;
  readonly exitHook: boolean;
  readonly streamingProcessFunc: StreamingProcessFunc | null;
  readonly providerMetadata: Record<string, unknown>;
  readonly #recording: RecorderChoice;

  constructor(options: IModelOptions) {
    requireObject(options, "new IModel(options)", "options");
    requireObject(options.endpoint, "new IModel(options)", "options.endpoint (an Endpoint such as ScriptedEndpoint or OpenAIChatEndpoint)");
    this.id = options.id ?? newId();
    this.createdAt = options.createdAt ?? epochSeconds();
    this.endpoint = options.endpoint;
    const registry = options.hookRegistry;
    this.hookRegistry = registry instanceof HookRegistry ? registry : new HookRegistry(registry ?? {});
    this.exitHook = options.exitHook ?? false;
    this.streamingProcessFunc = options.streamingProcessFunc ?? null;
    this.providerMetadata = options.providerMetadata ?? {};
    this.#recording = new RecorderChoice(options.signals, () => environmentRecorder(this.id));
  }

  /**
   * Builds the event a call runs as, in this order: the pre-event-create hook (if registered)
   * runs with the event class, and its return value is ignored; if it asks to exit, its error is
   * thrown, otherwise (even after a failure) the event is built. Only HookedEvent classes are
   * accepted, checked after that hook ran. Pre/post hook events are attached only for the phases
   * the registry handles; each `…ExitHook` left null falls back to the model's `exitHook`.
   * Resolves with the APICalling itself (not a tuple).
   */
  async createEvent(options: CreateEventOptions = {}): Promise<APICalling> {
    if (options === null || typeof options !== "object") optionsObject(options, "IModel.createEvent(options)");
    const registry = this.hookRegistry;
    const eventType = options.createEventType ?? APICalling;
    let preCreate: HookEvent | null = null;
    // POSIX seconds for the APICalling when the pre-create hook's end reading can serve (it ended synchronously).
    let apiCallCreatedAt: number | undefined;
    if (registry.canHandle(PRE_EVENT_CREATE)) {
      const startMs = performance.now();
      preCreate = new HookEvent({
        hookType: HookEventTypes.PreEventCreate,
        registry,
        eventLike: eventType,
        params: options.createEventHookParams,
        exit: options.createEventExitHook ?? this.exitHook,
        timeout: options.createEventHookTimeout === undefined ? DEFAULT_CREATE_EVENT_HOOK_TIMEOUT : options.createEventHookTimeout,
        createdAt: epochSecondsAt(startMs),
      });
      const running = runHook(preCreate, options.signal, startMs);
      if (running) await running;
      else {
        const endedAtMs = preCreate[ENDED_AT_MS];
        if (endedAtMs !== undefined) apiCallCreatedAt = epochSecondsAt(endedAtMs);
      }
      if (preCreate.shouldExit) throw preCreate.exitCause ?? new HookPhaseError("PreEventCreate hook requested exit without a cause");
    }
    if (!isHookedEventClass(eventType)) {
      throw new InvalidValueError(`Unsupported event type: ${eventType.name}. Only APICalling is supported.`);
    }
    const request = requestFields(options);
    const apiCall = (eventType as unknown) === APICalling ? this.createApiCalling(request, apiCallCreatedAt) : (new (eventType as HookedEventClass)(request) as APICalling);
    if (preCreate) {
      preCreate[ASSOCIATE_EVENT](apiCall);
      globalHookLog.log(preCreate);
      rememberPreCreateHook(apiCall, preCreate);
    }
    // Hook events made in the same synchronous step as an APICalling that our own createApiCalling
    // just built share its clock reading (one Date.now() per call instead of three).
    const createdAt = (eventType as unknown) === APICalling && this.createApiCalling === OWN_CREATE_API_CALLING ? apiCall.createdAt : undefined;
    if (registry.canHandle(PRE_INVOCATION)) {
      apiCall.createPreInvokeHook(registry, {
        exitHook: options.preInvokeEventExitHook ?? this.exitHook,
        hookTimeout: options.preInvokeEventHookTimeout === undefined ? DEFAULT_INVOKE_HOOK_TIMEOUT : options.preInvokeEventHookTimeout,
        hookParams: options.preInvokeEventHookParams ?? null,
        [HOOK_CREATED_AT]: createdAt,
      });
    }
    if (registry.canHandle(POST_INVOCATION)) {
      apiCall.createPostInvokeHook(registry, {
        exitHook: options.postInvokeEventExitHook ?? this.exitHook,
        hookTimeout: options.postInvokeEventHookTimeout === undefined ? DEFAULT_INVOKE_HOOK_TIMEOUT : options.postInvokeEventHookTimeout,
        hookParams: options.postInvokeEventHookParams ?? null,
        [HOOK_CREATED_AT]: createdAt,
      });
    }
    return apiCall;
  }

  /** Builds an APICalling from request fields through `endpoint.createPayload`; `createdAt` (POSIX seconds) defaults to now. */
  createApiCalling(request: EndpointPayload, createdAt?: number): APICalling {
    const { cacheControl, callOptions, ...fields } = request;
    const { payload, headers } = this.endpoint.createPayload(fields);
    return new APICalling({
      createdAt,
      endpoint: this.endpoint,
      payload,
      headers,
      cacheControl: cacheControl === true,
      callOptions: isRecord(callOptions) ? callOptions : {},
    });
  }

  /**
   * Runs one call and resolves with its APICalling; read `status`, `response`, `usage` and
   * `execution.error` from it. A provider or hook failure does not reject: it is the call's
   * FAILED status. Errors while creating the event reject as
   * `InvalidValueError("Failed to invoke API call: …")`; an abort rejects with the abort reason.
   * A `stream` field is dropped.
   */
  async invoke(options: ModelCallOptions = {}): Promise<APICalling> {
    if (options === null || typeof options !== "object") optionsObject(options, "IModel.invoke(options)");
    const { signal } = options;
    const record = this.#record(options, false);
    let apiCall = options.apiCall ?? null;
    try {
      if (!apiCall) {
        const { stream: _dropped, ...rest } = options;
        apiCall = await this.createEvent(rest);
      }
      await apiCall.invoke(signal ? { signal } : {});
      record?.finished(apiCall);
      return apiCall;
    } catch (error) {
      const cancelled = isCancellation(error, signal);
      record?.finished(apiCall, error, cancelled);
      if (cancelled) throw error;
      throw wrap("Failed to invoke API call", error);
    }
  }

  /**
   * Streams one call. Each chunk goes first to the registry's stream handler for its class (or
   * its class name: "Object" for a plain JSON chunk, "String" for a string), which takes
   * precedence over `streamingProcessFunc`; a result other than null/undefined replaces the chunk.
   * A handler failure keeps the original chunk, unless the exit policy is on: then its error ends
   * the stream as `InvalidValueError("Failed to stream API call: …")`. A provider failure ends
   * the stream quietly with the APICalling FAILED (pass `apiCall` to inspect it). Errors while
   * creating the event are thrown unwrapped.
   */
  async *stream(options: ModelCallOptions = {}): AsyncGenerator<unknown, void, undefined> {
    if (options === null || typeof options !== "object") optionsObject(options, "IModel.stream(options)");
    const { signal } = options;
    const record = this.#record(options, true);
    let apiCall: APICalling | null = options.apiCall ?? null;
    try {
      apiCall ??= await this.createEvent({ ...options, stream: true });
    } catch (error) {
      record?.finished(null, error, isCancellation(error, signal));
      throw error;
    }
    try {
      for await (const chunk of apiCall.stream(signal ? { signal } : {})) {
        record?.chunk(chunk);
        const processed = await this.#processChunk(chunk, signal, record);
        yield processed ?? chunk;
      }
      record?.finished(apiCall);
    } catch (error) {
      const cancelled = isCancellation(error, signal);
      record?.finished(apiCall, error, cancelled);
      if (cancelled) throw error;
      throw wrap("Failed to stream API call", error);
    } finally {
      // The consumer stopped early (break/return): the call ends here, unfinished.
      record?.finished(apiCall, null, true);
    }
  }

  /** What one stream chunk becomes; null/undefined mean "keep the chunk". */
  processChunk(chunk: unknown, signal?: AbortSignal): Promise<unknown> {
    return this.#processChunk(chunk, signal, null);
  }

  /** {@link processChunk}, recording the stream handler's run (when one ran) on the call's record. */
  async #processChunk(chunk: unknown, signal: AbortSignal | undefined, record: IModelCallRecord | null): Promise<unknown> {
    const key = this.#streamKey(chunk);
    if (key !== null) {
      const run = record?.handlerStarted(keyName(key));
      const [result, shouldExit, status] = await this.hookRegistry.handleStreamingChunk(key, chunk, {
        exit: this.exitHook,
        ...(signal && { signal }),
      });
      run?.(status, result);
      if (shouldExit) {
        if (Array.isArray(result) && result.length === 2 && result[1] instanceof Error) throw result[1];
        if (result instanceof Error) throw result;
        throw new HookPhaseError("Streaming hook requested exit without a cause");
      }
      return result instanceof Error ? null : result;
    }
    const process = this.streamingProcessFunc;
    if (process && !(chunk instanceof APICalling)) {
      const out = process(chunk);
      return isThenable(out) ? await out : out;
    }
    return null;
  }

  /** Where calls are recorded as signals as given (or set), or HOOKLENS_OTEL's; see {@link IModelOptions.signals}. */
  get signals(): SignalRecorder | null {
    return this.#recording.given;
  }

  set signals(recorder: SignalRecorder | null) {
    this.#recording.given = recorder;
  }

  /** Where the next call is recorded: `signals` when one was given, else the active session, else HOOKLENS_OTEL's recorder. */
  get recorder(): SignalRecorder | null {
    return this.#recording.current();
  }

  #record(options: ModelCallOptions, stream: boolean): IModelCallRecord | null {
    const recorder = this.recorder;
    if (recorder === null) return null;
    const payload = options.apiCall?.payload;
    const model = payload ? payload["model"] : options["model"];
    const request = payload ?? requestFields(options);
    const parentCallId = typeof options.parentCallId === "string" ? options.parentCallId : null;
    return new IModelCallRecord(recorder, { model, provider: this.endpoint.name, stream, payload: request, parentCallId });
  }

  /** A new model (fresh id) over the same endpoint, the same registry object and the same exit policy. */
  copy(): IModel {
    return new IModel({
      endpoint: this.endpoint,
      hookRegistry: this.hookRegistry,
      exitHook: this.exitHook,
      streamingProcessFunc: this.streamingProcessFunc,
      providerMetadata: { ...this.providerMetadata },
      ...(this.#recording.followsSession ? {} : { signals: this.#recording.given }),
    });
  }

  /** The class key if one is registered for the chunk's class, else the class name if that is, else null. */
  #streamKey(chunk: unknown): string | ChunkClass | null {
    const type = chunkClassOf(chunk);
    if (type && this.hookRegistry.canHandle({ chunkType: type })) return type;
    const name = type ? type.name || "Object" : String(chunk);
    return this.hookRegistry.canHandle({ chunkType: name }) ? name : null;
  }
}

const OWN_CREATE_API_CALLING = IModel.prototype.createApiCalling;

function chunkClassOf(chunk: unknown): ChunkClass | null {
  if (chunk === null || chunk === undefined) return null;
  const proto = Object.getPrototypeOf(Object(chunk)) as { constructor?: unknown } | null;
  return proto && typeof proto.constructor === "function" ? (proto.constructor as ChunkClass) : Object;
}

function isHookedEventClass(type: unknown): type is HookedEventClass {
  return typeof type === "function" && (type === HookedEvent || type.prototype instanceof HookedEvent);
}

function requestFields(options: CreateEventOptions): EndpointPayload {
  const fields: EndpointPayload = {};
  for (const key of Object.keys(options)) if (!OPTION_KEYS.has(key)) fields[key] = options[key];
  return fields;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function wrap(prefix: string, error: unknown): InvalidValueError {
  const message = error instanceof Error ? error.message : String(error);
  return new InvalidValueError(`${prefix}: ${message}`, { cause: error });
}

