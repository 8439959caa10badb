/** A caller of flush() waiting, and since when (epoch ms). */
interface FlushWaiter {
  readonly resolve: () => void;
  readonly since: number;
}

/**
 * The callers of an awaited flush, each given up on once the editor took nothing for `stallMs`
 * since its call or since the editor's last read, whichever is later. The timer is ref'd: while
 * the program awaits a flush it waits on purpose, but never longer than that.
 */
export class FlushWaits {
  readonly #waiters: FlushWaiter[] = [];
  #timer: NodeJS.Timeout | null = null;

  constructor(
    readonly stallMs: number,
    /** When the editor last took bytes, epoch ms. */
    private readonly lastProgressAt: () => number,
  ) {}

  /** Resolves when {@link resolveAll} is called or the editor stalled for the bound. */
  wait(): Promise<void> {
    return new Promise((resolve) => {
      this.#waiters.push({ resolve, since: Date.now() });
      if (!this.#timer) this.#arm();
    });
  }

  resolveAll(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    for (const waiter of this.#waiters.splice(0)) waiter.resolve();
  }

  #deadline(waiter: FlushWaiter): number {
    return Math.max(waiter.since, this.lastProgressAt()) + this.stallMs;
  }

  #arm(): void {
    const next = Math.min(...this.#waiters.map((waiter) => this.#deadline(waiter)));
    this.#timer = setTimeout(() => this.#check(), Math.max(1, next - Date.now()));
  }

  #check(): void {
    this.#timer = null;
    const now = Date.now();
    for (let i = this.#waiters.length - 1; i >= 0; i--) {
      const waiter = this.#waiters[i]!;
      if (this.#deadline(waiter) > now) continue;
      this.#waiters.splice(i, 1);
      waiter.resolve();
    }
    if (this.#waiters.length > 0) this.#arm();
  }
}
