import type { HookEvent, HookEventDict } from "./hookEvent.js";
import { optionsObject } from "../shared/arguments.js";

/** Entries a hook log buffers before it flushes (or drops the oldest). */
export const HOOK_LOG_CAPACITY = 100;

export interface HookLogOptions {
  capacity?: number;
  /** Receives the full buffer (as snapshots) each time it reaches capacity; the buffer then starts empty. */
  sink?: ((entries: HookEventDict[]) => void) | null;
}

/**
 * A bounded record of hook events. It keeps the events themselves and turns them into plain
 * snapshots only when read (`entries()`, or a sink receiving a full buffer), so logging costs a
 * push. With a sink, every full buffer is handed to it; without one, the oldest entry makes room.
 */
export class HookLog {
  readonly capacity: number;
  sink: ((entries: HookEventDict[]) => void) | null;
  // A ring: #start is the oldest slot, #count how many are filled.
  #ring: (HookEvent | undefined)[];
  #start = 0;
  #count = 0;

  constructor(options: HookLogOptions = {}) {
    optionsObject(options, "new HookLog(options)");
    this.capacity = Math.max(1, options.capacity ?? HOOK_LOG_CAPACITY);
    this.sink = options.sink ?? null;
    this.#ring = new Array<HookEvent | undefined>(this.capacity);
  }

  /** Records one hook event. */
  log(event: HookEvent): void {
    const capacity = this.capacity;
    if (this.#count < capacity) {
      this.#ring[(this.#start + this.#count++) % capacity] = event;
      if (this.#count === capacity && this.sink) this.#handOver();
      return;
    }
    this.#ring[this.#start] = event;
    this.#start = (this.#start + 1) % capacity;
  }

  /** Snapshots of the buffered events, oldest first. */
  entries(): HookEventDict[] {
    const out: HookEventDict[] = [];
    for (let i = 0; i < this.#count; i++) out.push(this.#ring[(this.#start + i) % this.capacity]!.toDict());
    return out;
  }

  get size(): number {
    return this.#count;
  }

  /** Hands what is buffered to the sink (if any), empties the buffer and returns the snapshots. */
  flush(): HookEventDict[] {
    return this.#handOver();
  }

  /** Empties the buffer without handing it anywhere. */
  clear(): void {
    this.#ring.fill(undefined);
    this.#start = 0;
    this.#count = 0;
  }

  #handOver(): HookEventDict[] {
    const drained = this.entries();
    this.clear();
    if (this.sink && drained.length > 0) this.sink(drained);
    return drained;
  }
}

/** The process-wide hook log every HookedEvent and `IModel.createEvent` write to. */
export const globalHookLog = new HookLog();
