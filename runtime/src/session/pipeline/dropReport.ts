import { getLogger } from "../../shared/log.js";
import { closeAtExit, forgetAtExit } from "../../store/closeAtExit.js";

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
  /** Writes the held-back line if the program exits before its timer fires. */
  readonly #atExit = { close: () => this.report(true) };

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
      forgetAtExit(this.#atExit);
      this.report();
    }, delayMs).unref();
    closeAtExit(this.#atExit);
  }

  #cancelDeferred(): void {
    if (this.#deferred === null) return;
    clearTimeout(this.#deferred);
    this.#deferred = null;
    forgetAtExit(this.#atExit);
  }
}

function describe(reason: unknown): string {
  return reason instanceof Error ? reason.message : String(reason);
}
