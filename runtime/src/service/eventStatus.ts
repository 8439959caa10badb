/** Where an event is in its life. The string values are the wire format and never change. */
export enum EventStatus {
  PENDING = "pending",
  PROCESSING = "processing",
  COMPLETED = "completed",
  FAILED = "failed",
  SKIPPED = "skipped",
  CANCELLED = "cancelled",
  ABORTED = "aborted",
}

/** Every status value, in declaration order (Python's `EventStatus.allowed()`). */
export const ALLOWED_EVENT_STATUSES: readonly `${EventStatus}`[] = Object.freeze(Object.values(EventStatus));

/** Statuses after which `invoke()` and `stream()` do nothing. */
export const TERMINAL_EVENT_STATUSES: ReadonlySet<EventStatus> = new Set([
  EventStatus.COMPLETED,
  EventStatus.FAILED,
  EventStatus.CANCELLED,
  EventStatus.ABORTED,
  EventStatus.SKIPPED,
]);

const VALUES: ReadonlySet<string> = new Set(ALLOWED_EVENT_STATUSES);

/** True for a status value string or member. */
export function isEventStatus(value: unknown): value is EventStatus {
  return typeof value === "string" && VALUES.has(value);
}
