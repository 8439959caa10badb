import { Worker } from "node:worker_threads";

/** A pattern that took longer than its time budget (a backtracking blow-up such as `^(a+)+$`). */
export class PatternTimeoutError extends Error {
  override name = "PatternTimeoutError";
}

// Plain CommonJS evaluated as the worker's script: no file to ship beside the runtime's bundles.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const regex = new RegExp(workerData.source, workerData.flags);
parentPort.on("message", (lines) => {
  const hits = [];
  for (let i = 0; i < lines.length; i++) if (regex.test(lines[i])) hits.push(i);
  parentPort.postMessage(hits);
});`;

/**
 * Matches lines against a pattern that came from the model, in a worker thread with a time
 * budget for the whole search: JavaScript's engine backtracks, and one pattern can take longer
 * than the age of the universe on a 30-character line. When the budget runs out the worker is
 * terminated, so the event loop (and every other tool) never waits on it. `close()` when done.
 */
export class BoundedMatcher {
  readonly #worker: Worker;
  readonly #budgetMs: number;
  #spentMs = 0;

  /** `source` and `flags` must already compile (the caller reports a syntax error itself). */
  constructor(source: string, flags: string, budgetMs: number) {
    this.#worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { source, flags } });
    this.#worker.unref();
    this.#budgetMs = budgetMs;
  }

  /** The indexes of the lines the pattern matches; rejects with PatternTimeoutError once the budget is spent. */
  matchingLines(lines: readonly string[]): Promise<number[]> {
    const started = performance.now();
    const remaining = Math.max(this.#budgetMs - this.#spentMs, 1);
    return new Promise<number[]>((resolve, reject) => {
      const settle = (): void => {
        clearTimeout(timer);
        this.#worker.off("message", onMessage);
        this.#worker.off("error", onError);
        this.#spentMs += performance.now() - started;
      };
      const onMessage = (hits: number[]): void => {
        settle();
        resolve(hits);
      };
      const onError = (error: Error): void => {
        settle();
        reject(error);
      };
      const timer = setTimeout(() => {
        settle();
        void this.#worker.terminate();
        reject(new PatternTimeoutError(`The pattern took longer than ${this.#budgetMs} ms to match; simplify it (nested repetition such as (a+)+ backtracks without end)`));
      }, remaining);
      this.#worker.on("message", onMessage);
      this.#worker.on("error", onError);
      this.#worker.postMessage(lines);
    });
  }

  close(): void {
    void this.#worker.terminate();
  }
}
