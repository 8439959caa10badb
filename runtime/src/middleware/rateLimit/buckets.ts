import { createHash } from "node:crypto";
import { getEnvironmentData, setEnvironmentData } from "node:worker_threads";
import { InvalidValueError } from "../../shared/errors.js";
import type { Rate } from "./rate.js";
import type { Clock } from "./timing.js";
import { describeValue } from "../../shared/arguments.js";

const SLOTS = 256;
const KEY_BYTES = 64;
const HEADER_BYTES = 8; // Int32 lock word, Int32 count of claimed slots
const TAT_OFFSET = HEADER_BYTES;
const LENGTH_OFFSET = TAT_OFFSET + SLOTS * 8;
const KEY_OFFSET = LENGTH_OFFSET + SLOTS * 4;
const TABLE_BYTES = KEY_OFFSET + SLOTS * KEY_BYTES;
/** Where the process-wide table travels to worker threads (the layout version is in the name). */
const ENVIRONMENT_KEY = "@hooklens/runtime:rate-buckets:v1";

const encoder = new TextEncoder();

/** A booking: how long to wait before the call may start, and the time it frees the bucket. */
export interface Booking {
  readonly wait: number;
  readonly tat: number;
}

/**
 * GCRA buckets in a SharedArrayBuffer, so every worker thread that holds the same buffer books
 * from the same buckets. Each bucket keeps one number, the time its latest booking frees
 * ("theoretical arrival time"); bookings happen under a spin lock built on Atomics and never
 * wait inside it. Buckets are keyed by kind and rate, and never move once claimed.
 */
export class RateBuckets {
  readonly buffer: SharedArrayBuffer;
  readonly #header: Int32Array;
  readonly #tat: Float64Array;
  readonly #lengths: Int32Array;
  readonly #keys: Uint8Array;
  readonly #slotByKey = new Map<string, number>();

  /** A private table, or a view of an existing one (for example a buffer posted to a worker). */
  constructor(buffer: SharedArrayBuffer = new SharedArrayBuffer(TABLE_BYTES)) {
    if (!(buffer instanceof SharedArrayBuffer) || buffer.byteLength !== TABLE_BYTES) {
      throw new InvalidValueError(`new RateBuckets(buffer): buffer must be a SharedArrayBuffer of ${TABLE_BYTES} bytes (another RateBuckets' buffer), got ${describeValue(buffer)}`);
    }
    this.buffer = buffer;
    this.#header = new Int32Array(buffer, 0, 2);
    this.#tat = new Float64Array(buffer, TAT_OFFSET, SLOTS);
    this.#lengths = new Int32Array(buffer, LENGTH_OFFSET, SLOTS);
    this.#keys = new Uint8Array(buffer, KEY_OFFSET, SLOTS * KEY_BYTES);
  }

  /**
   * The table shared by the whole process. It is created when the runtime is first loaded and
   * handed to worker threads through the worker environment data, so workers started after
   * that see the same buckets.
   */
  static shared(): RateBuckets {
    return sharedTable;
  }

  /** How many buckets have been claimed, by any thread. */
  get size(): number {
    return Atomics.load(this.#header, 1);
  }

  /** The bucket index of `kind` at `rate`, claimed on first use. */
  slotFor(kind: string, rate: Rate): number {
    const key = bucketKey(kind, rate);
    const known = this.#slotByKey.get(key);
    if (known !== undefined) return known;
    const bytes = encoder.encode(key);
    this.#lock();
    try {
      let slot = this.#find(bytes);
      if (slot < 0) slot = this.#claim(bytes);
      this.#slotByKey.set(key, slot);
      return slot;
    } finally {
      this.#unlock();
    }
  }

  /**
   * Books the next slot of a bucket at the time `clock` reads (seconds): GCRA with a burst of
   * `rate.calls`. The clock is read under the lock, so bookings from different threads see
   * non-decreasing times; read before it, a thread that lost the race for the lock would book
   * "in the past" and be handed a sliver of wait the burst should have covered.
   */
  book(slot: number, rate: Rate, clock: Clock): Booking {
    this.#lock();
    try {
      const now = clock();
      const tat = Math.max(this.#tat[slot]!, now) + rate.interval;
      this.#tat[slot] = tat;
      return { wait: Math.max(0, tat - rate.per - now), tat };
    } finally {
      this.#unlock();
    }
  }

  /**
   * Gives a cancelled booking back, but only if it is still the latest one: a later booking was
   * computed from it, so moving the bucket back then would hand the same slot out twice.
   */
  release(slot: number, rate: Rate, booking: Booking): boolean {
    this.#lock();
    try {
      if (this.#tat[slot] !== booking.tat) return false;
      this.#tat[slot] = booking.tat - rate.interval;
      return true;
    } finally {
      this.#unlock();
    }
  }

  #find(bytes: Uint8Array): number {
    const used = this.#header[1]!;
    for (let slot = 0; slot < used; slot++) {
      if (this.#lengths[slot] !== bytes.length) continue;
      const start = slot * KEY_BYTES;
      let same = true;
      for (let i = 0; i < bytes.length && same; i++) same = this.#keys[start + i] === bytes[i];
      if (same) return slot;
    }
    return -1;
  }

  #claim(bytes: Uint8Array): number {
    const slot = this.#header[1]!;
    if (slot >= SLOTS) throw new InvalidValueError(`the rate bucket table is full (${SLOTS} kind and rate pairs)`);
    this.#keys.set(bytes, slot * KEY_BYTES);
    this.#lengths[slot] = bytes.length;
    this.#tat[slot] = -Infinity;
    this.#header[1] = slot + 1;
    return slot;
  }

  #lock(): void {
    // The critical sections are a few arithmetic operations; waiting a little beats spinning hot.
    while (Atomics.compareExchange(this.#header, 0, 0, 1) !== 0) Atomics.wait(this.#header, 0, 1, 1);
  }

  #unlock(): void {
    Atomics.store(this.#header, 0, 0);
    Atomics.notify(this.#header, 0, 1);
  }
}

/** Kind and rate, short enough for a key cell (long kinds are hashed, identically in every thread). */
function bucketKey(kind: string, rate: Rate): string {
  const key = `${kind}\u0000${rate.calls}\u0000${rate.per}`;
  if (encoder.encode(key).length <= KEY_BYTES) return key;
  return `#${createHash("sha256").update(key).digest("base64url")}`;
}

function adoptOrCreateSharedTable(): RateBuckets {
  const inherited = getEnvironmentData(ENVIRONMENT_KEY);
  if (inherited instanceof SharedArrayBuffer && inherited.byteLength === TABLE_BYTES) return new RateBuckets(inherited);
  const table = new RateBuckets();
  setEnvironmentData(ENVIRONMENT_KEY, table.buffer);
  return table;
}

// Created at load time so that workers spawned before the first RateLimitHook still inherit it.
const sharedTable = adoptOrCreateSharedTable();
