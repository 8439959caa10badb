/**
 * Background work numbered in start order, so a drain waits for exactly what had started before
 * it: never for work started later, which a busy program may never stop starting. Cheaper than a
 * set of promises with a settle callback each, for work that runs for every message.
 */
export class BackgroundWork {
  #started = 0;
  /** Every ticket below this one has finished. */
  #finishedBelow = 0;
  /** Tickets above `#finishedBelow` that finished before it (out of order). */
  readonly #finishedAhead = new Set<number>();
  /** Drains in the order they were asked for, each waiting for the tickets below `upTo`. */
  readonly #drains: Array<{ readonly upTo: number; readonly resolve: () => void }> = [];

  /** A ticket for work that starts now; pass it to {@link finish} when the work ends, however it ends. */
  start(): number {
    return this.#started++;
  }

  finish(ticket: number): void {
    if (ticket !== this.#finishedBelow) {
      this.#finishedAhead.add(ticket);
      return;
    }
    this.#finishedBelow++;
    while (this.#finishedAhead.delete(this.#finishedBelow)) this.#finishedBelow++;
    while (this.#drains.length > 0 && this.#drains[0]!.upTo <= this.#finishedBelow) this.#drains.shift()!.resolve();
  }

  /** Resolves once all work started so far has finished. */
  drained(): Promise<void> {
    if (this.#finishedBelow === this.#started) return Promise.resolve();
    return new Promise((resolve) => this.#drains.push({ upTo: this.#started, resolve }));
  }
}
