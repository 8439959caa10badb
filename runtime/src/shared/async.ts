/** True for anything with a callable `then`: a sync handler may return a promise-like. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === "object" || typeof value === "function") &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

/** One settled promise shared by every fast path, so a no-op emit allocates nothing. */
export const RESOLVED: Promise<void> = Promise.resolve();

/** A settled `true`, shared the same way: the answer of a governance check with no gate. */
export const RESOLVED_TRUE: Promise<boolean> = Promise.resolve(true);
