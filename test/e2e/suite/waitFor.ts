/** Registers a listener; returns a disposable or an unsubscribe function. */
export type Subscribe = (listener: () => void) => { dispose(): unknown } | (() => unknown);

/**
 * Resolves with the first truthy value of `probe`, checked now and after each notification of
 * `subscribe`; rejects after `timeoutMs` naming `what`. Waits on events, never sleeps.
 */
export function waitFor<T>(subscribe: Subscribe, probe: () => T | undefined | null | false, what: string, timeoutMs = 60_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const first = probe();
    if (first) return resolve(first);
    let unsubscribe: () => void = () => undefined;
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
    }, timeoutMs);
    const subscription = subscribe(() => {
      const value = probe();
      if (!value) return;
      clearTimeout(timer);
      unsubscribe();
      resolve(value);
    });
    unsubscribe = () => void (typeof subscription === "function" ? subscription() : subscription.dispose());
  });
}

/**
 * For state that raises no event (a file another process writes, a throttled status item):
 * resolves with the first truthy value of `probe`, checked every `everyMs`; rejects after
 * `timeoutMs` naming `what`.
 */
export async function poll<T>(probe: () => T | undefined | null | false, what: string, timeoutMs = 60_000, everyMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
