/**
 * Writes what network stores still hold when a program runs out of work. Their queue timers are
 * unref'd so they never keep a finished program alive; Node then emits `beforeExit`, where an
 * asynchronous flush can still run (it cannot in `exit`). Once everything is written the event
 * loop empties again and the program ends. `process.exit()` and signals skip this, as they skip
 * any asynchronous work.
 */
export interface FlushableAtExit {
  readonly pendingWrites: number;
  flush(): Promise<void>;
}

const open = new Set<FlushableAtExit>();
let listening = false;

export function flushBeforeExit(store: FlushableAtExit): void {
  open.add(store);
  if (listening) return;
  listening = true;
  process.on("beforeExit", () => {
    for (const item of open) {
      // Only stores with work left: flushing an idle one would re-arm beforeExit forever.
      if (item.pendingWrites > 0) void item.flush();
    }
  });
}

export function forgetBeforeExit(store: FlushableAtExit): void {
  open.delete(store);
}
