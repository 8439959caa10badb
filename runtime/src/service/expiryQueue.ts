import { performance } from "node:perf_hooks";

/** Something with a time limit that an ExpiryQueue can hold (linked in place: no node object per entry). */
export interface Expiring {
  /** performance.now() milliseconds at which it expires. */
  expiresAt: number;
  prevExpiring: Expiring | null;
  nextExpiring: Expiring | null;
  queue: ExpiryQueue | null;
  /** Called once, when its time has passed. */
  expire(): void;
}

// setTimeout cannot wait longer than this; a longer wait is done in several hops.
const MAX_TIMER_MS = 2 ** 31 - 1;
// libuv measures timers from its cached loop time, so a timer may fire up to a tick "early" by performance.now().
const SLACK_MS = 1;

/**
 * Pending deadlines of one duration, oldest first, under ONE timer. Adding or removing an entry
 * is a few pointer writes: no timer is created or cleared per entry. The timer is set for the
 * oldest entry; when it fires it expires what is due and sets itself for the next entry. Once the
 * queue has stayed empty until the event loop turns, the timer is unref'd (it keeps no process
 * alive) but left set, so the next entry only has to ref it again.
 */
export class ExpiryQueue {
  #head: Expiring | null = null;
  #tail: Expiring | null = null;
  readonly #ms: number;
  #timer: ReturnType<typeof setTimeout> | null = null;
  /** The setTimeout that made #timer (a swapped-in timer implementation gets a timer of its own) and its clearTimeout. */
  #setTimer: typeof setTimeout | null = null;
  #clearTimer: typeof clearTimeout = clearTimeout;
  /** When #timer fires (performance.now() ms). */
  #due = 0;
  /** Whether #timer holds the process open. */
  #refed = false;
  #idleCheckPending = false;

  constructor(ms: number) {
    this.#ms = ms;
  }

  /** Holds `entry` until `expiresAt` (performance.now() ms), then calls `entry.expire()`. */
  add(entry: Expiring, expiresAt: number): void {
    entry.queue?.remove(entry); // never linked twice
    entry.expiresAt = expiresAt;
    entry.queue = this;
    // Entries nearly always arrive in expiry order (same duration, later start): append.
    let after = this.#tail;
    while (after !== null && after.expiresAt > expiresAt) after = after.prevExpiring;
    entry.prevExpiring = after;
    entry.nextExpiring = after === null ? this.#head : after.nextExpiring;
    if (entry.nextExpiring === null) this.#tail = entry;
    else entry.nextExpiring.prevExpiring = entry;
    if (after === null) this.#head = entry;
    else after.nextExpiring = entry;

    const timer = this.#timer;
    if (timer === null || this.#setTimer !== setTimeout || expiresAt < this.#due) this.#schedule(expiresAt);
    else if (!this.#refed) {
      timer.ref();
      this.#refed = true;
    }
  }

  /** Drops `entry` (it settled in time). */
  remove(entry: Expiring): void {
    if (entry.queue !== this) return;
    const { prevExpiring: prev, nextExpiring: next } = entry;
    if (prev === null) this.#head = next;
    else prev.nextExpiring = next;
    if (next === null) this.#tail = prev;
    else next.prevExpiring = prev;
    entry.prevExpiring = entry.nextExpiring = null;
    entry.queue = null;
    // Unref'ing at once would cost two native calls per entry for back-to-back hooks; wait for the loop to turn.
    if (this.#head === null && this.#refed && !this.#idleCheckPending) {
      this.#idleCheckPending = true;
      setImmediate(this.#releaseIfIdle);
    }
  }

  readonly #releaseIfIdle = (): void => {
    this.#idleCheckPending = false;
    if (this.#head === null && this.#timer !== null && this.#refed) {
      this.#timer.unref();
      this.#refed = false;
    }
  };

  #schedule(at: number): void {
    if (this.#timer !== null) this.#clearTimer(this.#timer);
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, at - performance.now()));
    this.#setTimer = setTimeout;
    this.#clearTimer = clearTimeout;
    this.#timer = setTimeout(this.#fire, delay);
    this.#refed = true;
    this.#due = at;
  }

  readonly #fire = (): void => {
    this.#timer = null;
    this.#refed = false;
    const now = performance.now();
    try {
      for (let entry = this.#head; entry !== null && entry.expiresAt <= now + SLACK_MS; entry = this.#head) {
        this.remove(entry);
        if (this.#head === entry) break; // cannot happen; never spin on a broken list
        entry.expire();
      }
    } finally {
      if (this.#head !== null) this.#schedule(this.#head.expiresAt);
      // Idle: forget this duration, so one-off timeouts do not pile up queues.
      else if (queues.get(this.#ms) === this) queues.delete(this.#ms);
    }
  };
}

const queues = new Map<number, ExpiryQueue>();

/** The shared queue of every deadline lasting `ms` milliseconds. */
export function expiryQueueFor(ms: number): ExpiryQueue {
  let queue = queues.get(ms);
  if (queue === undefined) queues.set(ms, (queue = new ExpiryQueue(ms)));
  return queue;
}
