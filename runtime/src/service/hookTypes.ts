import type { Event, EventClass } from "./event.js";
import type { EventStatus } from "./eventStatus.js";

/** The three service hook phases. */
export enum HookEventTypes {
  PreEventCreate = "pre_event_create",
  PreInvocation = "pre_invocation",
  PostInvocation = "post_invocation",
}

/** A phase as its member or exact value. */
export type HookEventTypesLike = HookEventTypes | `${HookEventTypes}`;

/** The three phase values (Python's `ALLOWED_HOOKS_TYPES`). */
export const ALLOWED_HOOKS_TYPES: readonly `${HookEventTypes}`[] = Object.freeze(Object.values(HookEventTypes));

/** Every key a hooks object may use: the three values and their aliases. */
export type HookKey = `${HookEventTypes}` | "pre_event_create_hook" | "pre_invoke" | "post_invoke";

/** What a phase handler's second argument holds: the caller's params plus the resolved `exit` flag. */
export interface HookParams {
  [param: string]: unknown;
  /** The exit policy of this call, always present. */
  exit: boolean;
  /** Aborts when the hook's deadline passes or its caller cancels; present when the caller has one. */
  signal?: AbortSignal;
}

/**
 * A phase handler. The pre-create handler gets the event class, the other two the event.
 * Sync or async; it fails a phase only by throwing.
 */
export type PhaseHookHandler = (eventLike: Event | EventClass, params: HookParams) => unknown;

/** One handler per phase, keyed by phase value or alias. */
export type HookDict = Partial<Record<HookKey, PhaseHookHandler>>;

/** A class that stream chunks are instances of; stream handlers may be keyed by it. */
export type ChunkClass = abstract new (...args: never[]) => unknown;

/**
 * A stream handler, called exactly as dispatch calls it: `handler(null, chunkType, chunk, params)`.
 * `chunkType` is the key the chunk was dispatched under: a string by default, the class itself
 * for a handler registered under a class (`StreamHandler<ChunkClass>`). A return other than
 * null/undefined replaces the chunk in `IModel.stream`.
 */
export type StreamHandler<K extends string | ChunkClass = string> = (
  event: null,
  chunkType: K,
  chunk: unknown,
  params: Record<string, unknown>,
) => unknown;

/**
 * One stream-handler registration: a string key with a `StreamHandler`, or a class key with a
 * handler typed for that class (`StreamHandler<typeof MyChunk>`; `never` admits any class).
 */
export type StreamHandlerEntry = readonly [string, StreamHandler] | readonly [ChunkClass, StreamHandler<never>];

/** Stream handlers as a plain object (string keys), or as an entry list or Map (string or class keys). */
export type StreamHandlers =
  | { readonly [chunkType: string]: StreamHandler }
  | readonly StreamHandlerEntry[]
  | ReadonlyMap<string | ChunkClass, StreamHandler | StreamHandler<never>>;

/** Where a phase call came from; filled on the HookEvent after it runs. */
export interface AssociatedEventInfo {
  lionClass?: string;
  eventId?: string;
  eventCreatedAt?: number;
}

/** The placeholder result of a cancelled handler: `[[Undefined, error], true, CANCELLED]`. */
export const Undefined: unique symbol = Symbol("Undefined");

/** `[result, shouldExit, status]` of one phase. */
export type HookPhaseResult = [result: unknown, shouldExit: boolean, status: EventStatus];

/** What `registry.call` returns for a phase: the phase result and the event metadata. */
export type PhaseCallResult = [phase: HookPhaseResult, meta: AssociatedEventInfo];

/** What `registry.call` returns for a chunk: three values, no metadata; status null on success. */
export type ChunkCallResult = [result: unknown, shouldExit: boolean, status: EventStatus | null];
