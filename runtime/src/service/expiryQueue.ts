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
 * oldest entry; while the queue is empty it stays set but unref'd (it keeps no process alive),
 * and when it fires it expires what is due and sets itself for the next entry.
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

  constructor(ms: number) {
    this.#ms = ms;
  }

  /** Holds `entry` until `expiresAt` (performance.now() ms), then calls `entry.expire()`. */
  add(entry: Expiring, expiresAt: number): void {
    entry.expiresAt = expiresAt;
    entry.queue = this;
    const wasEmpty = this.#head === null;
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
    else if (wasEmpty) timer.ref();
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
    if (this.#head === null && this.#timer !== null) this.#timer.unref();
  }

  #schedule(at: number): void {
    if (this.#timer !== null) this.#clearTimer(this.#timer);
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, at - performance.now()));
    this.#setTimer = setTimeout;
    this.#clearTimer = clearTimeout;
    this.#timer = setTimeout(this.#fire, delay);
    this.#due = at;
  }

  readonly #fire = (): void => {
    this.#timer = null;
    const now = performance.now();
    try {
      for (let entry = this.#head; entry !== null && entry.expiresAt <= now + SLACK_MS; entry = this.#head) {
        this.remove(entry);
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
