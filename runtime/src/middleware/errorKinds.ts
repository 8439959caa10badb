import { PolicyOutcome } from "./errors.js";

/** The type name of a thrown value: the class name for errors, `typeof` otherwise. Never the message. */
export function errorKind(error: unknown): string {
  if (error instanceof Error) {
    const ctorName = (Object.getPrototypeOf(error) as { constructor?: { name?: string } } | null)?.constructor?.name;
    return error.name !== "Error" ? error.name : ctorName || "Error";
  }
  return error === null ? "null" : typeof error;
}

/** Cancellation: an AbortError, or the reason the run's signal was aborted with. */
export function isControlFlow(error: unknown, signal: AbortSignal | undefined): boolean {
  if (signal?.aborted && error === signal.reason) return true;
  return error instanceof Error && error.name === "AbortError";
}

/** BudgetExceeded, GuardrailBlocked, ApprovalDenied, RunLimitExceeded and their subclasses. */
export function isPolicyOutcome(error: unknown): error is PolicyOutcome {
  return error instanceof PolicyOutcome;
}
