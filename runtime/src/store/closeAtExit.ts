/**
 * Closes what is registered when the process exits, synchronously: stores (signals still waiting
 * for a lock get a last attempt and the WebAssembly heap is released) and drop reports holding a
 * line back. One listener for all (one each would trip Node's leak warning past ten).
 */
export interface ClosableAtExit {
  close(): void;
}

const open = new Set<ClosableAtExit>();
let listening = false;

export function closeAtExit(store: ClosableAtExit): void {
  open.add(store);
  if (listening) return;
  listening = true;
  process.once("exit", () => {
    for (const item of [...open]) {
      try {
        item.close();
      } catch {
        // Nothing useful can happen with an error while the process is exiting.
      }
    }
  });
}

export function forgetAtExit(store: ClosableAtExit): void {
  open.delete(store);
}
