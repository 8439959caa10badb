import { EventStatus } from "./eventStatus.js";

/** Further errors stop being recorded once a group holds this many. */
export const MAX_RECORDED_ERRORS = 100;

/**
 * What running an event produced. `duration` is in seconds (null until the event ran);
 * `error` is the thrown Error on ordinary events and a message string on a HookEvent.
 */
export class EventExecution {
  status: EventStatus = EventStatus.PENDING;
  duration: number | null = null;
  response: unknown = null;
  error: unknown = null;
  retryable: boolean | null = null;

  /**
   * Records an error: the first one is stored as is; later ones are gathered into one
   * `AggregateError("multiple errors")` holding at most {@link MAX_RECORDED_ERRORS}.
   */
  addError(error: unknown): void {
    const current = this.error;
    if (current === null || current === undefined || !(current instanceof Error)) {
      this.error = error;
    } else if (current instanceof AggregateError && current.message === "multiple errors") {
      if (current.errors.length >= MAX_RECORDED_ERRORS) return;
      this.error = new AggregateError([...current.errors, error], "multiple errors");
    } else {
      this.error = new AggregateError([current, error], "multiple errors");
    }
  }

  /** A plain snapshot: errors become `{ error: name, message }`. */
  toDict(): ExecutionDict {
    return {
      status: this.status,
      duration: this.duration,
      response: this.response,
      error: describeError(this.error),
      retryable: this.retryable,
    };
  }
}

export interface ExecutionDict {
  status: EventStatus;
  duration: number | null;
  response: unknown;
  error: unknown;
  retryable: boolean | null;
}

function describeError(error: unknown): unknown {
  if (error instanceof AggregateError) {
    return { error: error.name, message: error.message, errors: error.errors.map(describeError) };
  }
  if (error instanceof Error) return { error: error.name, message: error.message };
  return error;
}
