import { requireFunction, requireString } from "../shared/arguments.js";
import { isThenable } from "../shared/async.js";
import { getLogger } from "../shared/log.js";
import { DropReport } from "../session/pipeline/dropReport.js";
import type { EncodedSignal } from "../session/pipeline/encodedSignal.js";
import type { SignalSink } from "../session/pipeline/sink.js";
import { signalSettings } from "../session/pipeline/signalSettings.js";
import type { SignalStore } from "./signalStore.js";

/** A store call still running: the signals it carries, until it settles or the flush gives it up. */
interface PendingCall {
  readonly signals: number;
  done: boolean;
}

/**
 * A persistence binding as a sink: each flushed batch goes to the store the binding names, or to
 * the default store current at that flush. Stores that take encoded batches get the shared JSON;
 * any other gets one `insertSessionSignal` per record. A store may be anyone's code: whatever its
 * methods do (throw, return a promise or any thenable that rejects, or one that never settles),
 * the failure is counted and logged once per flush, never thrown at the code that emitted the
 * signals, and no rejection is left unhandled. `flush()` waits for the store at most
 * `signalSettings().storeSettleMs`; what has not settled by then is counted as dropped.
 */
export class StoreSink implements SignalSink {
  readonly #resolve: () => SignalStore | null;
  readonly #report: DropReport;
  readonly #pending = new Map<Promise<void>, PendingCall>();
  readonly #used = new Set<SignalStore>();
  #reportScheduled = false;

  constructor(resolve: () => SignalStore | null, where: string) {
    this.#resolve = requireFunction(resolve, "new StoreSink(resolve, where)", "resolve (returns the SignalStore to write to)");
    requireString(where, "new StoreSink(resolve, where)", "where (names the binding in drop reports)");
    this.#report = new DropReport(where);
  }

  /** Signals a store failed to take (threw, rejected, or had not settled when a flush gave up on it). */
  get droppedSignals(): number {
    return this.#report.total;
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
      this.#call(batch.length, () => store.insertEncodedSignals!(sessionId, batch));
      return;
    }
    for (const signal of batch) {
      this.#call(1, () => store.insertSessionSignal({ sessionId, kind: signal.kind, opId: signal.opId, ts: signal.ts, payload: signal.payload }));
    }
  }

  /** Waits (within `storeSettleMs`) for every call made so far and for each store's own `flush`. */
  async flush(): Promise<void> {
    const deadline = Date.now() + signalSettings().storeSettleMs;
    await this.#settle(deadline);
    for (const store of this.#used) {
      if (typeof store.flush === "function") this.#call(0, () => store.flush!());
    }
    await this.#settle(deadline);
    this.#report.report(true);
  }

  /** Calls a store method; a throw or a rejection is counted against `signals`, a thenable is tracked. */
  #call(signals: number, method: () => unknown): void {
    let out: unknown;
    try {
      out = method();
    } catch (error) {
      this.#failed(signals, error);
      return;
    }
    if (!isThenable(out)) return;
    const call: PendingCall = { signals, done: false };
    // Promise.resolve adopts any thenable, also one whose `then` throws; both outcomes are handled here.
    const tracked = Promise.resolve(out).then(
      () => undefined,
      (error: unknown) => {
        if (!call.done) this.#failed(signals, error);
      },
    );
    this.#pending.set(tracked, call);
    void tracked.finally(() => {
      call.done = true;
      this.#pending.delete(tracked);
    });
  }

  /** Waits for the calls pending now until `deadline`; those still pending then are given up and counted. */
  async #settle(deadline: number): Promise<void> {
    if (this.#pending.size === 0) return;
    const waiting = [...this.#pending];
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<void>((resolve) => {
      // Ref'd on purpose: a program awaiting this flush stays alive until the bound, then goes on.
      timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
    });
    await Promise.race([Promise.all(waiting.map(([promise]) => promise)), expired]);
    clearTimeout(timer);
    for (const [promise, call] of waiting) {
      if (call.done) continue;
      call.done = true;
      this.#pending.delete(promise);
      this.#failed(call.signals, new Error(`the store had not settled after ${signalSettings().storeSettleMs.toLocaleString("en-US")} ms`));
    }
  }

  #failed(count: number, error: unknown): void {
    if (count === 0) {
      // A failed flush carries no signals of its own: it says why earlier ones may be missing.
      try {
        getLogger().error({ err: error, where: this.#report.where }, `A signal store failed to flush for ${this.#report.where}: ${error instanceof Error ? error.message : String(error)}`);
      } catch {
        // A failing logger must not break the signal path.
      }
      return;
    }
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
