import { performance } from "node:perf_hooks";
import { epochSecondsAt } from "../shared/clock.js";
import { InvalidValueError, HookLensError } from "../shared/errors.js";
import { isCancellation, toError } from "./cancellation.js";
import { StreamClosedError } from "./errors.js";
import { EventStatus, isEventStatus, TERMINAL_EVENT_STATUSES } from "./eventStatus.js";
import { EventExecution, type ExecutionDict } from "./execution.js";
import { describeValue, optionsObject } from "../shared/arguments.js";
import { newId } from "../shared/ids.js";

export interface EventInit {
  id?: string;
  /** POSIX seconds, a float. */
  createdAt?: number | undefined;
  metadata?: Record<string, unknown>;
  streaming?: boolean;
}

/** Options of `invoke()` and `stream()`: aborting `signal` cancels the run. */
export interface InvokeOptions {
  signal?: AbortSignal;
}

/** A class of events (what a pre-create hook receives). */
export type EventClass = abstract new (...args: never[]) => Event;

/** The plain snapshot an event logs as. */
export interface EventDict extends ExecutionDict {
  id: string;
  lionClass: string;
  createdAt: number;
}

const UNSET: unique symbol = Symbol("unset");

/** Seconds on a monotonic clock. */
export function monotonicSeconds(): number {
  return performance.now() / 1000;
}

/**
 * Something that runs once and keeps the outcome. `invoke()` never rejects for an ordinary
 * failure: the error is recorded and the status becomes FAILED. A cancellation (an aborted
 * signal, or an error named "AbortError") is recorded as CANCELLED and rethrown. Subclasses
 * implement `_invoke` and, when they stream, `_stream`.
 */
export class Event {
  #id: string | null;
  readonly createdAt: number;
  #metadata: Record<string, unknown> | typeof UNSET;
  readonly execution = new EventExecution();
  streaming: boolean;
  /** A clock reading a subclass took where its work ended (see `Event.finishedAt`). */
  #finishedAtMs: number | undefined = undefined;

  constructor(init: EventInit = {}) {
    optionsObject(init, `new ${new.target.name}(init)`);
    this.#id = init.id ?? null;
    this.createdAt = init.createdAt ?? epochSecondsAt(performance.now());
    this.#metadata = init.metadata ?? UNSET;
    this.streaming = init.streaming ?? false;
  }

  /** A UUID v4 string, made on first read: most events (hook events above all) are never looked up by id. */
  get id(): string {
    return (this.#id ??= newId());
  }

  /** Free-form data about the event (an empty object until first read or set). */
  get metadata(): Record<string, unknown> {
    if (this.#metadata === UNSET) this.#metadata = {};
    return this.#metadata;
  }

  set metadata(value: Record<string, unknown>) {
    this.#metadata = value;
  }

  get status(): EventStatus {
    return this.execution.status;
  }

  /** Accepts a member or its exact string value; anything else is an InvalidValueError. */
  set status(value: EventStatus | `${EventStatus}`) {
    if (!isEventStatus(value)) throw new InvalidValueError(`Invalid status: ${String(value)}`);
    this.execution.status = value;
  }

  get response(): unknown {
    return this.execution.response;
  }

  set response(value: unknown) {
    this.execution.response = value;
  }

  /** The request this event carries; subclasses override. */
  get request(): Record<string, unknown> {
    return {};
  }

  /** The class name hooks see as `lionClass`. */
  className(): string {
    return this.constructor.name;
  }

  /**
   * @internal A subclass that already read the clock (`performance.now()`) where its `_invoke`
   * work ended (a HookedEvent's post hook) hands the reading over, and the running `invoke()`
   * ends the event's duration there instead of reading the clock again.
   */
  static finishedAt(event: Event, monotonicMs: number | undefined): void {
    event.#finishedAtMs = monotonicMs;
  }

  /** Runs the event once; does nothing unless the status is PENDING. */
  async invoke(options: InvokeOptions = {}): Promise<void> {
    if (this.execution.status !== EventStatus.PENDING) return;
    this.execution.status = EventStatus.PROCESSING;
    const startMs = performance.now();
    try {
      const result = await this._invoke(options.signal, startMs);
      this.execution.response = result;
      this.execution.status = EventStatus.COMPLETED;
    } catch (error) {
      if (this.#recordError(error, options.signal)) throw error;
    } finally {
      const endMs = this.#finishedAtMs ?? performance.now();
      this.#finishedAtMs = undefined;
      this.execution.duration = (endMs - startMs) / 1000;
    }
  }

  /**
   * Runs the event as a stream of chunks; does nothing once the status is terminal. The same
   * outcome contract as `invoke()`: a failure ends the stream quietly with FAILED (chunks already
   * yielded stay delivered), a cancellation is CANCELLED and rethrown, and a consumer that stops
   * reading early leaves the event CANCELLED.
   */
  async *stream(options: InvokeOptions = {}): AsyncGenerator<unknown, void, undefined> {
    if (TERMINAL_EVENT_STATUSES.has(this.execution.status)) return;
    this.execution.status = EventStatus.PROCESSING;
    const start = monotonicSeconds();
    let settled = false;
    try {
      for await (const chunk of this._stream(options.signal)) yield chunk;
      settled = true;
      this.execution.status = EventStatus.COMPLETED;
    } catch (error) {
      settled = true;
      if (this.#recordError(error, options.signal)) throw error;
    } finally {
      if (!settled) {
        this.execution.addError(new StreamClosedError("The stream was closed before it finished"));
        this.execution.status = EventStatus.CANCELLED;
      }
      this.execution.duration = monotonicSeconds() - start;
    }
  }

  /** Records a cancellation (CANCELLED; returns true: rethrow it) or a failure (FAILED; returns false). */
  #recordError(error: unknown, signal: AbortSignal | undefined): boolean {
    if (isCancellation(error, signal)) {
      this.execution.addError(error);
      this.execution.status = EventStatus.CANCELLED;
      return true;
    }
    this.execution.status = EventStatus.FAILED;
    this.execution.addError(toError(error));
    return false;
  }

  /** The work of `invoke()`; its return value becomes the response. `startedAtMs` is when invoke() began (performance.now()). */
  protected _invoke(_signal?: AbortSignal, _startedAtMs?: number): Promise<unknown> {
    return Promise.reject(new HookLensError(`${this.className()} does not implement _invoke()`));
  }

  /** The work of `stream()`. */
  // eslint-disable-next-line require-yield
  protected async *_stream(_signal?: AbortSignal): AsyncGenerator<unknown, void, undefined> {
    throw new HookLensError(`${this.className()} does not implement _stream()`);
  }

  /** A plain snapshot of the event and its execution. */
  toDict(): EventDict {
    return { id: this.id, lionClass: this.className(), createdAt: this.createdAt, ...this.execution.toDict() };
  }
}

/** The `lionClass` of an event or an event class. */
export function classNameOf(eventLike: Event | EventClass): string {
  if (typeof eventLike === "function") return eventLike.name;
  if (typeof (eventLike as Partial<Event> | null)?.className !== "function") {
    throw new InvalidValueError(`classNameOf(eventLike): eventLike must be an Event or an Event class, got ${describeValue(eventLike)}`);
  }
  return eventLike.className();
}
