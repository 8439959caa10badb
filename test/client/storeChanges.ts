import type { SignalStore } from "../../client/src/signals/signalStore.js";

/** Resolves once `predicate` holds, checked now and after each store change (no sleeping). */
export function untilStore(store: SignalStore, predicate: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (predicate()) return resolve();
    const off = store.onDidChange(() => {
      if (predicate()) {
        off();
        resolve();
      }
    });
  });
}
