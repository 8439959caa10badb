import { getLogger } from "../../shared/log.js";

/** Fewest milliseconds between two drop reports of one sink: an outage must not flood the log. */
const MIN_REPORT_INTERVAL_MS = 1_000;

/**
 * Counts what one sink dropped and reports it in a single log line per flush, and not more than
 * once a second: the count covers everything since the previous line. Drops held back by that
 * second are logged when it is over (or when the program exits first), never left out.
 */
export class DropReport {
  #unreported = 0;
  #lastReason: unknown = null;
  #lastLoggedAt = 0;
  #total = 0;
  /** The held-back line's timer, unref'd: it never keeps a finished program alive. */
  #deferred: NodeJS.Timeout | null = null;

  constructor(readonly where: string) {}

  /** Everything dropped so far. */
  get total(): number {
    return this.#total;
  }

  count(signals: number, reason: unknown): void {
    if (signals <= 0) return;
    this.#unreported += signals;
    this.#total += signals;
    this.#lastReason = reason;
  }

  /**
   * Logs the drops counted since the last line; if a line was written less than a second ago
   * (and `force` is not set), once that second is over instead.
   */
  report(force = false): void {
    if (this.#unreported === 0) return;
    const now = Date.now();
    if (!force && now - this.#lastLoggedAt < MIN_REPORT_INTERVAL_MS) {
      this.#defer(this.#lastLoggedAt + MIN_REPORT_INTERVAL_MS - now);
      return;
    }
    this.#cancelDeferred();
    const count = this.#unreported;
    const reason = this.#lastReason;
    this.#unreported = 0;
    this.#lastLoggedAt = now;
    try {
      getLogger().error(
        { err: reason, count, where: this.where },
        `Dropped ${count.toLocaleString("en-US")} signal(s) for ${this.where}: ${describe(reason)}`,
      );
    } catch {
      // A failing logger must not break the signal path.
    }
  }

  #defer(delayMs: number): void {
    if (this.#deferred !== null) return;
    this.#deferred = setTimeout(() => {
      this.#deferred = null;
      heldBack(this, false);
      this.report();
    }, delayMs).unref();
    heldBack(this, true);
  }

  #cancelDeferred(): void {
    if (this.#deferred === null) return;
    clearTimeout(this.#deferred);
    this.#deferred = null;
    heldBack(this, false);
  }
}

/**
 * Reports holding a line back, logged at exit if their timer has not fired by then. One exit
 * listener serves them all (one per report would trip Node's leak warning past ten sinks).
 */
const heldBackReports = new Set<DropReport>();

function reportHeldBack(): void {
  for (const report of [...heldBackReports]) report.report(true);
}

function heldBack(report: DropReport, waiting: boolean): void {
  if (!waiting) {
    if (heldBackReports.delete(report) && heldBackReports.size === 0) process.removeListener("exit", reportHeldBack);
    return;
  }
  if (heldBackReports.size === 0) process.on("exit", reportHeldBack);
  heldBackReports.add(report);
}

function describe(reason: unknown): string {
  return reason instanceof Error ? reason.message : String(reason);
}
