import { DropReport } from "../session/pipeline/dropReport.js";
import type { EncodedSignal } from "../session/pipeline/encodedSignal.js";
import { signalSettings } from "../session/pipeline/signalSettings.js";
import { droppedMarkerRow, rowBytes, rowFromEncoded, type SignalRow } from "./signalRow.js";

/** The part of a write-behind queue a {@link RowAdmission} fills. */
export interface RowQueue {
  /** Bytes of rows waiting to be written. */
  readonly pendingBytes: number;
  submit(row: SignalRow, bytes: number): void;
}

/**
 * Admits rows into a store's queue under the memory bound. Below it every row is queued; past it
 * rows are counted as dropped. Rows the store later gives up (a lock or an outage that outlasted
 * the retry window) are counted too. Each gap becomes one marker row per session
 * (`SignalsDropped`, `{count, reason}`) queued where recording resumes, so readers see where
 * signals are missing and how many; a marker that is itself lost is folded into the next one.
 * Drops are logged in one line per batch at most (and at most once a second).
 */
export class RowAdmission {
  readonly report: DropReport;
  /** Per session: signals lost and not yet covered by a queued marker. */
  readonly #unmarked = new Map<string, number>();
  #reason = "";

  constructor(where: string) {
    this.report = new DropReport(where);
  }

  admitEncoded(queue: RowQueue, sessionId: string, batch: readonly EncodedSignal[]): void {
    this.admit(queue, batch.map((signal) => rowFromEncoded(sessionId, signal)));
  }

  admit(queue: RowQueue, rows: readonly SignalRow[]): void {
    this.queueMarkers(queue);
    const limit = signalSettings().maxPendingBytes;
    let dropped = 0;
    for (const row of rows) {
      const bytes = rowBytes(row);
      if (queue.pendingBytes + bytes <= limit) {
        queue.submit(row, bytes);
        continue;
      }
      dropped++;
      this.#unmarked.set(row.sessionId, (this.#unmarked.get(row.sessionId) ?? 0) + 1);
    }
    if (dropped > 0) {
      const reason = new Error(`more than ${limit.toLocaleString("en-US")} bytes of signals waiting to be written`);
      this.#reason = reason.message;
      this.report.count(dropped, reason);
      this.queueMarkers(queue);
    }
    this.report.report();
  }

  /** The store gave these rows up: count them (a lost marker carries its own count) for the next marker. */
  lost(rows: readonly SignalRow[], reason: unknown): void {
    let signals = 0;
    for (const row of rows) {
      const count = row.droppedCount ?? 1;
      this.#unmarked.set(row.sessionId, (this.#unmarked.get(row.sessionId) ?? 0) + count);
      if (row.droppedCount === undefined) signals++;
    }
    this.#reason = reason instanceof Error ? reason.message : String(reason);
    this.report.count(signals, reason);
    this.report.report();
  }

  /** Queues one marker per session with unmarked losses (markers bypass the bound: they are tiny and say what was lost). */
  queueMarkers(queue: RowQueue): void {
    if (this.#unmarked.size === 0) return;
    for (const [sessionId, count] of this.#unmarked) {
      const marker = droppedMarkerRow(sessionId, count, this.#reason);
      queue.submit(marker, rowBytes(marker));
    }
    this.#unmarked.clear();
  }
}
