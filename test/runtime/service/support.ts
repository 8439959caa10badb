// Small shared pieces of the service tests.
import { captureLogs as startCapture, type CapturedLog } from "../../helpers/captureLogs.js";

export type { CapturedLog };

/** Routes the runtime logger into an array for the duration of `body`. */
export async function captureLogs<T>(body: (logs: CapturedLog[]) => Promise<T> | T): Promise<T> {
  const { logs, restore } = startCapture();
  try {
    return await body(logs);
  } finally {
    restore();
  }
}

export function abortError(message = "aborted"): DOMException {
  return new DOMException(message, "AbortError");
}

/** A promise that never settles: a hook that hangs. */
export function never(): Promise<never> {
  return new Promise<never>(() => {});
}

export async function collect(iterable: AsyncIterable<unknown>): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

/** Reads a stream to its end or its error: what arrived, and the error (null when it ended). */
export async function drain(iterable: AsyncIterable<unknown>): Promise<{ received: unknown[]; error: unknown }> {
  const received: unknown[] = [];
  try {
    for await (const item of iterable) received.push(item);
    return { received, error: null };
  } catch (error) {
    return { received, error };
  }
}
