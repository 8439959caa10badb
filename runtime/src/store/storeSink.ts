import { requireFunction, requireString } from "../shared/arguments.js";
import { isThenable } from "../shared/async.js";
import { DropReport } from "../session/pipeline/dropReport.js";
import type { EncodedSignal } from "../session/pipeline/encodedSignal.js";
import type { SignalSink } from "../session/pipeline/sink.js";
import type { SignalStore } from "./signalStore.js";

/**
 * A persistence binding as a sink: each flushed batch goes to the store the binding names, or to
 * the default store current at that flush. Stores that take encoded batches get the shared JSON;
 * any other gets one `insertSessionSignal` per record. A store's failure is counted and logged
 * once per flush, never thrown at the code that emitted the signals.
 */
export class StoreSink implements SignalSink {
  readonly #resolve: () => SignalStore | null;
  readonly #report: DropReport;
  readonly #pending = new Set<Promise<unknown>>();
  readonly #used = new Set<SignalStore>();
  #reportScheduled = false;

  constructor(resolve: () => SignalStore | null, where: string) {
    this.#resolve = requireFunction(resolve, "new StoreSink(resolve, where)", "resolve (returns the SignalStore to write to)");
    requireString(where, "new StoreSink(resolve, where)", "where (names the binding in drop reports)");
    this.#report = new DropReport(where);
  }

  write(sessionId: string, batch: readonly EncodedSignal[]): void {
    let store: SignalStore | null;
    try {
      store = this.#resolve();
    } catch (error) {
      this.#failed(batch.length, error);
      return;
    }
    if (!store) return;
    this.#used.add(store);
    if (typeof store.insertEncodedSignals === "function") {
      try {
        store.insertEncodedSignals(sessionId, batch);
      } catch (error) {
        this.#failed(batch.length, error);
      }
      return;
    }
    for (const signal of batch) {
      try {
        const out = store.insertSessionSignal({ sessionId, kind: signal.kind, opId: signal.opId, ts: signal.ts, payload: signal.payload });
        if (isThenable(out)) this.#track(Promise.resolve(out));
      } catch (error) {
        this.#failed(1, error);
      }
    }
  }

  async flush(): Promise<void> {
    await Promise.all([...this.#pending]);
    await Promise.all([...this.#used].map((store) => (store.flush ? store.flush().catch(() => undefined) : undefined)));
    this.#report.report(true);
  }

  #track(write: Promise<unknown>): void {
    const tracked = write.then(
      () => undefined,
      (error: unknown) => this.#failed(1, error),
    );
    this.#pending.add(tracked);
    void tracked.finally(() => this.#pending.delete(tracked));
  }

  #failed(count: number, error: unknown): void {
    this.#report.count(count, error);
    if (this.#reportScheduled) return;
    // Failures of one flush arrive together (sync throws, or rejections a tick later): one line for all.
    this.#reportScheduled = true;
    setImmediate(() => {
      this.#reportScheduled = false;
      this.#report.report();
    }).unref();
  }
}
