import { isCancellation } from "./cancellation.js";
import { Deadline, DEADLINE_OPTION } from "./deadline.js";
import { Event, monotonicSeconds, type EventClass, type EventDict, type InvokeOptions } from "./event.js";
import { EventStatus } from "./eventStatus.js";
import type { HookRegistry } from "./hookRegistry.js";
import type { AssociatedEventInfo, HookEventTypes } from "./hookTypes.js";

/** Default seconds a HookEvent waits for its handler. */
export const DEFAULT_HOOK_TIMEOUT = 30;

export interface HookEventInit {
  registry: HookRegistry;
  hookType: HookEventTypes;
  /** The event (or, for pre-create, the event class) the handler receives. */
  eventLike: Event | EventClass;
  /** Exit policy; null/undefined mean false. */
  exit?: boolean | null;
  /** Seconds before the handler is abandoned; null means no deadline. Default 30. */
  timeout?: number | null;
  /** Extra params handed to the handler. */
  params?: Record<string, unknown>;
  id?: string;
  createdAt?: number;
}

export interface HookEventDict extends EventDict {
  hookType: HookEventTypes;
  associatedEventInfo: AssociatedEventInfo | null;
}

/**
 * One run of one phase handler under a deadline. `invoke()` never rejects except on a
 * cancellation from its caller: a raised handler leaves the registry's status (CANCELLED before,
 * ABORTED after) with the message in `execution.error`; a wiring failure or a passed deadline is
 * FAILED. `shouldExit` and `exitCause` tell the caller whether to stop and with which error.
 *
 * Reproduced as built: a handler that *returns* an Error (rather than throwing it) leaves the
 * status COMPLETED with the message recorded as the error, and any two-element array a handler
 * returns is read as the cancellation shape, so its second item is thrown and the event FAILS.
 * Unlike `Event.invoke`, it runs again every time it is called.
 */
export class HookEvent extends Event {
  readonly registry: HookRegistry;
  readonly hookType: HookEventTypes;
  readonly eventLike: Event | EventClass;
  readonly exit: boolean;
  readonly timeout: number | null;
  readonly params: Record<string, unknown>;
  associatedEventInfo: AssociatedEventInfo | null = null;
  #shouldExit = false;
  #exitCause: unknown = null;

  constructor(init: HookEventInit) {
    super(init);
    this.registry = init.registry;
    this.hookType = init.hookType;
    this.eventLike = init.eventLike;
    this.exit = init.exit ?? false;
    this.timeout = init.timeout === undefined ? DEFAULT_HOOK_TIMEOUT : init.timeout;
    this.params = init.params ?? {};
  }

  /** Whether the caller should stop: set by the registry, or from `exit` when the run failed. */
  get shouldExit(): boolean {
    return this.#shouldExit;
  }

  /** The error to stop with, if any. */
  get exitCause(): unknown {
    return this.#exitCause;
  }

  override async invoke(options: InvokeOptions = {}): Promise<void> {
    const start = monotonicSeconds();
    this.execution.status = EventStatus.PROCESSING;
    const deadline = new Deadline(this.timeout, options.signal);
    try {
      const [[result, shouldExit, status], meta] = await this.registry.call(this.eventLike, {
        ...this.params,
        hookType: this.hookType,
        shouldExit: this.exit,
        [DEADLINE_OPTION]: deadline,
      });
      this.associatedEventInfo = { ...meta };
      this.#shouldExit = shouldExit;
      this.execution.status = status;
      if (Array.isArray(result) && result.length === 2) {
        this.execution.response = null;
        this.execution.error = messageOf(result[1]);
        this.#exitCause = result[1];
        throw result[1] instanceof Error ? result[1] : new TypeError("A hook returned a two-item array whose second item is not an Error");
      }
      if (result instanceof Error) {
        this.execution.response = null;
        this.execution.error = messageOf(result);
        this.#exitCause = result;
      } else {
        this.execution.response = result;
        this.execution.error = null;
      }
    } catch (thrown) {
      const error = deadline.expired && !options.signal?.aborted ? deadline.timeoutError() : thrown;
      if (error === thrown && isCancellation(error, options.signal)) throw error;
      this.execution.status = EventStatus.FAILED;
      this.execution.response = null;
      this.execution.error = messageOf(error);
      this.#exitCause = error;
      this.#shouldExit = this.exit;
    } finally {
      deadline.clear();
      this.execution.duration = monotonicSeconds() - start;
    }
  }

  override toDict(): HookEventDict {
    return { ...super.toDict(), hookType: this.hookType, associatedEventInfo: this.associatedEventInfo && { ...this.associatedEventInfo } };
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
