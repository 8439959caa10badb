/** Seconds on a monotonic clock that every worker thread of the process shares. */
export type Clock = () => number;
/** Waits `seconds`; rejects with the signal's reason when it aborts. */
export type Sleep = (seconds: number, signal?: AbortSignal) => Promise<void>;

// hrtime is the OS monotonic clock, the same in every thread (performance.now() is per thread).
export const monotonicSeconds: Clock = () => Number(process.hrtime.bigint()) / 1e9;

/**
 * The default sleep. Timers run on the event loop's cached millisecond clock and may fire up to a
 * millisecond early; rounding up and adding one keeps a rate-limited call from starting early.
 */
export const sleepSeconds: Sleep = (seconds, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      },
      Math.ceil(seconds * 1000) + 1,
    );
    signal?.addEventListener("abort", onAbort, { once: true });
  });
