/**
 * Cancellation in JavaScript is an aborted `AbortSignal`. An error counts as a cancellation (the
 * Python original's `CancelledError`) when it is named "AbortError", or when it arrives while the
 * operation's own signal is aborted, whatever the abort reason.
 */
export function isCancellation(error: unknown, signal?: { readonly aborted: boolean } | null): boolean {
  if (signal?.aborted) return true;
  return typeof error === "object" && error !== null && (error as { name?: unknown }).name === "AbortError";
}

/** The error an aborted signal stands for. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

/** Turns a thrown non-Error into an Error so every failure path can read `.message`. */
export function toError(thrown: unknown): Error {
  if (thrown instanceof Error) return thrown;
  const error = new Error(typeof thrown === "string" ? thrown : `Non-error thrown: ${String(thrown)}`);
  (error as { cause?: unknown }).cause = thrown;
  return error;
}

/** Waits `ms` milliseconds; rejects with the abort reason if `signal` aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortReason(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
