/**
 * Collects writes and commits them in batches off the caller's stack: one transaction per
 * event-loop turn costs about what a single autocommit insert does, and the code that emitted
 * the signal never waits for the disk. When another process holds the lock, the batch is retried
 * on a backoff timer instead of SQLite's busy handler, which would spin the event loop.
 */
export interface WriteBehindQueueOptions<T> {
  /** Writes a batch in order: true when written, false when the database is busy; other failures throw. */
  write(batch: readonly T[]): boolean;
  /** Records were given up (lock held too long, or a write failed); `items` are the records lost. */
  onDrop(items: readonly T[], reason: unknown): void;
  giveUpAfterMs?: number;
}

const FIRST_RETRY_MS = 2;
const MAX_RETRY_MS = 200;
const BATCH_SIZE = 1_000;

export class WriteBehindQueue<T> {
  readonly #options: Required<WriteBehindQueueOptions<T>>;
  #pending: T[] = [];
  #sizes: number[] = [];
  #pendingBytes = 0;
  #locked = false;
  #scheduled: NodeJS.Immediate | NodeJS.Timeout | null = null;
  #retryDelay = FIRST_RETRY_MS;
  #stuckSince = 0;
  #waiters: Array<() => void> = [];
  #dropped = 0;
  #busyRetries = 0;

  constructor(options: WriteBehindQueueOptions<T>) {
    this.#options = { giveUpAfterMs: 30_000, ...options };
  }

  /** Records not yet in the file. */
  get pending(): number {
    return this.#pending.length;
  }

  /** Bytes of the records not yet in the file, as their submitters sized them. */
  get pendingBytes(): number {
    return this.#pendingBytes;
  }

  /** True while a batch waits for another process's lock (writing now would only fail again). */
  get waitingForLock(): boolean {
    return this.#locked;
  }

  /** Records given up so far. */
  get dropped(): number {
    return this.#dropped;
  }

  /** How many times a batch found the file locked and was put back for a retry. */
  get busyRetries(): number {
    return this.#busyRetries;
  }

  /** Queues a record of `bytes` for the next batch; never touches the disk itself. The caller enforces any bound. */
  submit(item: T, bytes = 0): void {
    this.#pending.push(item);
    this.#sizes.push(bytes);
    this.#pendingBytes += bytes;
    if (this.#scheduled === null) {
      this.#stuckSince = Date.now();
      // Unref'd: a pending batch must not keep a finished program alive; the exit hook writes it.
      this.#scheduled = setImmediate(() => this.#run()).unref();
    }
  }

  /** Resolves once every queued record is written or given up; keeps the process alive until then. */
  flush(): Promise<void> {
    if (this.#pending.length === 0) return Promise.resolve();
    // Someone awaits these writes: the pending batch or retry must now hold the event loop open.
    this.#scheduled?.ref();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Writes everything queued now, synchronously; false when the lock stopped it (the rest stays queued). */
  drainNow(): boolean {
    while (this.#pending.length > 0) {
      const batch = this.#pending.slice(0, BATCH_SIZE);
      let written: boolean;
      try {
        written = this.#options.write(batch);
      } catch (error) {
        this.#take(batch.length);
        this.#drop(batch, error);
        continue;
      }
      if (!written) {
        this.#busyRetries++;
        this.#locked = true;
        return false;
      }
      this.#locked = false;
      this.#take(batch.length);
      this.#retryDelay = FIRST_RETRY_MS;
      this.#stuckSince = Date.now();
    }
    this.#settle();
    return true;
  }

  /** Gives up whatever is still queued. */
  abandon(reason: unknown): void {
    this.#cancel();
    const lost = this.#pending;
    this.#take(lost.length);
    if (lost.length > 0) this.#drop(lost, reason);
    this.#settle();
  }

  #run(): void {
    this.#scheduled = null;
    if (this.drainNow()) return;
    if (Date.now() - this.#stuckSince >= this.#options.giveUpAfterMs) {
      this.abandon(new Error(`database is locked: still locked after ${this.#options.giveUpAfterMs} ms`));
      return;
    }
    const retry = setTimeout(() => this.#run(), this.#retryDelay);
    if (this.#waiters.length === 0) retry.unref();
    this.#scheduled = retry;
    this.#retryDelay = Math.min(this.#retryDelay * 2, MAX_RETRY_MS);
  }

  #cancel(): void {
    if (this.#scheduled !== null) {
      clearTimeout(this.#scheduled as NodeJS.Timeout);
      clearImmediate(this.#scheduled as NodeJS.Immediate);
    }
    this.#scheduled = null;
  }

  /** Removes the first `count` records (written or given up) from the queue and its byte count. */
  #take(count: number): void {
    if (count === this.#pending.length) {
      this.#pending = [];
      this.#sizes = [];
      this.#pendingBytes = 0;
      return;
    }
    this.#pending.splice(0, count);
    for (const size of this.#sizes.splice(0, count)) this.#pendingBytes -= size;
  }

  #drop(items: readonly T[], reason: unknown): void {
    this.#dropped += items.length;
    try {
      this.#options.onDrop(items, reason);
    } catch {
      // Reporting a drop must not break the queue (a failing logger, say).
    }
  }

  #settle(): void {
    if (this.#pending.length > 0) return;
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const resolve of waiters) resolve();
  }
}
