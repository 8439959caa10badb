/**
 * The write-behind queue for a database on the network. Like `WriteBehindQueue` it takes records
 * without ever making the caller wait, but the write itself is asynchronous: one batch is in
 * flight at a time, and whatever arrives meanwhile goes into the next one, so a burst becomes a
 * few batch inserts. When the server cannot be reached, the batch goes back to the front of
 * the queue and is retried with a growing pause; past the retry window the records are dropped
 * and reported, never thrown at the code that produced them.
 */
export interface AsyncWriteBehindQueueOptions<T> {
  /** Writes a batch in order: true when written, false when the server is unavailable (retry later); other failures throw. */
  write(batch: readonly T[]): Promise<boolean>;
  /** Records were given up (server away past the retry window, or a write failed); `items` are the records lost. */
  onDrop(items: readonly T[], reason: unknown): void;
  /** Bytes a record holds while it waits, for the caller's pending-work bound. */
  sizeOf?(item: T): number;
  /** Called when the retry window ran out, for the reason to report (e.g. the last connection error). */
  giveUpReason?(waitedMs: number): unknown;
  giveUpAfterMs?: number;
  firstRetryMs?: number;
  maxRetryMs?: number;
  batchSize?: number;
}

type Outcome = "written" | "unavailable";

export class AsyncWriteBehindQueue<T> {
  readonly #options: Required<AsyncWriteBehindQueueOptions<T>>;
  #pending: T[] = [];
  /** Bytes of the queued records and of the batch in flight. */
  #pendingBytes = 0;
  /** Size of the batch being written right now (it is out of #pending until it settles). */
  #inFlight = 0;
  /** True from the start of a write round until it has decided what comes next. */
  #active = false;
  #running: Promise<void> | null = null;
  #timer: NodeJS.Immediate | NodeJS.Timeout | null = null;
  #retryDelay: number;
  #stuckSince = 0;
  #stalled = false;
  #closing = false;
  #waiters: Array<() => void> = [];
  #dropped = 0;
  #retries = 0;

  constructor(options: AsyncWriteBehindQueueOptions<T>) {
    this.#options = {
      sizeOf: () => 0,
      giveUpAfterMs: 30_000,
      firstRetryMs: 50,
      maxRetryMs: 1_000,
      batchSize: 1_000,
      giveUpReason: (waited) => new Error(`the database stayed unavailable for ${waited} ms`),
      ...options,
    };
    this.#retryDelay = this.#options.firstRetryMs;
  }

  /** Records not yet written, the batch in flight included. */
  get pending(): number {
    return this.#pending.length + this.#inFlight;
  }

  /** Bytes of the records not yet written, the batch in flight included. */
  get pendingBytes(): number {
    return this.#pendingBytes;
  }

  get dropped(): number {
    return this.#dropped;
  }

  /** How many times a batch found the server unavailable and was put back for a retry. */
  get retries(): number {
    return this.#retries;
  }

  /** True while the last attempt failed for want of a server and the next one is waiting. */
  get stalled(): boolean {
    return this.#stalled;
  }

  /** Queues a record; the write starts on a later turn of the event loop. */
  submit(item: T): void {
    this.#pending.push(item);
    this.#pendingBytes += this.#options.sizeOf(item);
    if (this.#timer === null && !this.#active && !this.#closing) {
      this.#stuckSince = Date.now();
      this.#schedule(0);
    }
  }

  /** Resolves once every queued record is written or given up; keeps the process alive until then. */
  flush(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    this.#timer?.ref();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /**
   * Stops retrying: waits for the batch in flight, makes one more attempt at the rest, and drops
   * whatever still could not be written, reporting `reason()`. Nothing is retried afterwards.
   */
  async finish(reason: () => unknown): Promise<void> {
    this.#closing = true;
    this.#cancel();
    if (this.#running) await this.#running;
    if (this.#pending.length > 0) await this.#writeBatches();
    const lost = this.#takeAll();
    if (lost.length > 0) this.#drop(lost, reason());
    this.#settle();
  }

  #schedule(delayMs: number): void {
    const start = (): void => {
      this.#running = this.#run();
    };
    const timer = delayMs === 0 ? setImmediate(start) : setTimeout(start, delayMs);
    // Unref'd unless someone awaits flush(): pending writes must not keep a finished program alive.
    if (this.#waiters.length === 0) timer.unref();
    this.#timer = timer;
  }

  async #run(): Promise<void> {
    this.#timer = null;
    this.#active = true;
    let outcome: Outcome;
    try {
      outcome = await this.#writeBatches();
    } finally {
      this.#active = false;
      this.#running = null;
    }
    // Synchronous from here on: a submit cannot slip in between this decision and the next timer.
    if (this.#closing) return;
    if (outcome === "written") {
      // Records submitted while the last insert was in flight form the next batch.
      if (this.#pending.length > 0) this.#schedule(0);
      else this.#settle();
      return;
    }
    const waited = Date.now() - this.#stuckSince;
    if (waited >= this.#options.giveUpAfterMs) {
      const lost = this.#takeAll();
      this.#stalled = false;
      this.#retryDelay = this.#options.firstRetryMs;
      this.#drop(lost, this.#options.giveUpReason(waited));
      this.#settle();
      return;
    }
    this.#schedule(this.#retryDelay);
    this.#retryDelay = Math.min(this.#retryDelay * 2, this.#options.maxRetryMs);
  }

  async #writeBatches(): Promise<Outcome> {
    while (this.#pending.length > 0) {
      const batch = this.#pending.splice(0, this.#options.batchSize);
      this.#inFlight = batch.length;
      let written: boolean;
      try {
        written = await this.#options.write(batch);
      } catch (error) {
        this.#release(batch);
        this.#drop(batch, error);
        continue;
      } finally {
        this.#inFlight = 0;
      }
      if (!written) {
        this.#pending.unshift(...batch);
        this.#retries++;
        this.#stalled = true;
        return "unavailable";
      }
      this.#release(batch);
      this.#stalled = false;
      this.#retryDelay = this.#options.firstRetryMs;
      this.#stuckSince = Date.now();
    }
    return "written";
  }

  #cancel(): void {
    if (this.#timer !== null) {
      clearTimeout(this.#timer as NodeJS.Timeout);
      clearImmediate(this.#timer as NodeJS.Immediate);
    }
    this.#timer = null;
  }

  #takeAll(): T[] {
    const all = this.#pending;
    this.#pending = [];
    this.#release(all);
    return all;
  }

  #release(items: readonly T[]): void {
    for (const item of items) this.#pendingBytes -= this.#options.sizeOf(item);
  }

  #drop(items: readonly T[], reason: unknown): void {
    const count = items.length;
    this.#dropped += count;
    try {
      this.#options.onDrop(items, reason);
    } catch {
      // Reporting a drop must not break the queue (a failing logger, say).
    }
  }

  #settle(): void {
    if (this.pending > 0) return;
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const resolve of waiters) resolve();
  }
}
