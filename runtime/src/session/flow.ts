import { describeValue, requireString } from "../shared/arguments.js";
import { InvalidValueError } from "../shared/errors.js";
import type { SignalMaker } from "../signals/signalRecorder.js";
import { ALREADY_KEPT, CLAIMED, keepMarks, type Signal } from "./signal.js";

/** @internal The key of {@link Flow}'s deferred add (runtime-internal: the observer's recordings). */
export const ADD_DEFERRED: unique symbol = Symbol("hooklens.addDeferred");

/**
 * The observer's in-memory record: the most recent signals once each, in insertion order, plus
 * named streams (progressions) that list signals again in the order they were routed there.
 * Both are bounded: past `keep` entries the oldest are forgotten (they were already streamed and
 * persisted; memory stays flat however long a session runs).
 */
export class Flow {
  /**
   * The once-each rule without an index, while every signal added had a constructor-made id:
   * such an id is a random UUID no other signal has, so only the same object can repeat, and the
   * object itself carries which flow keeps it under which number (see `keepMarks`). Hashing every
   * id into a Map cost about a fifth of an emit. The first signal with a given id (or one another
   * flow marked since) builds the index below from the kept ring, and it is kept from then on.
   */
  #indexed = false;
  /**
   * id → the number it was added under, in two generations. An id is kept while its number is
   * among the last `ring.length` added. Deleting ids one by one from a large Map makes V8
   * rebuild its table over and over; instead a full generation is dropped whole once the next
   * one reaches `keep`.
   */
  #ids = new Map<string, number>();
  #olderIds = new Map<string, number>();
  /** Signals added so far; the next one gets this number. */
  #added = 0;
  /**
   * The kept signals, oldest first: a ring once it is full (`#head` is the oldest). An entry
   * whose maker (same index in `#makers`) is not null is a deferred signal, not built yet: the
   * entry is its source, and `#branchIds` and `#times` hold the rest of what its maker needs
   * (see `[ADD_DEFERRED]`).
   */
  readonly #ring: unknown[] = [];
  readonly #makers: Array<SignalMaker<unknown> | null> = [];
  readonly #branchIds: Array<string | undefined> = [];
  readonly #times: number[] = [];
  /** Deferred entries in the ring: none (the common case without them) skips every look. */
  #deferred = 0;
  #head = 0;
  readonly #progressions = new Map<string, Signal[]>();
  readonly keep: number;

  constructor(
    readonly name: string,
    keep = Number.POSITIVE_INFINITY,
  ) {
    requireString(name, "new Flow(name, keep)", "name");
    if (keep !== Number.POSITIVE_INFINITY && !(Number.isInteger(keep) && keep > 0)) {
      throw new InvalidValueError(`new Flow(name, keep): keep must be a positive integer or Infinity, got ${describeValue(keep)}`);
    }
    this.keep = keep;
  }

  /** Stores `signal` unless a kept signal has its id; returns whether it was new. Forgets the oldest past `keep`. */
  add(signal: Signal): boolean {
    // On every emit: typeofs only.
    if (typeof signal !== "object" || signal === null || typeof signal.id !== "string") notASignal("Flow.add(signal)", signal);
    if (!this.#indexed) {
      const outcome = keepMarks.claim(signal, this, this.#added, this.#added - this.#ring.length);
      if (outcome === CLAIMED) {
        this.#added++;
        this.#place(signal);
        return true;
      }
      if (outcome === ALREADY_KEPT) return false;
      this.#buildIndex();
    }
    if (this.has(signal.id)) return false;
    if (this.#ids.size >= this.keep) {
      this.#olderIds = this.#ids;
      this.#ids = new Map();
    }
    this.#ids.set(signal.id, this.#added);
    this.#keep(signal);
    return true;
  }

  /**
   * @internal Stores the signal `maker.build(source, branchId, createdAt)` without building it
   * yet: it is built when the flow is read (`items`, `has`, an index), and from then on kept as
   * that object, so its id is stable once seen. A deferred signal forgotten before anything
   * read it is never built. Its place is taken now: the order is the order of the calls. The
   * signal is new by construction (its id will be made by its constructor), so it is always added.
   */
  [ADD_DEFERRED]<S>(maker: SignalMaker<S>, source: S, branchId: string | undefined, createdAt: number): void {
    if (this.#indexed) {
      // An id index needs the id now.
      this.add(maker.build(source, branchId, createdAt));
      return;
    }
    this.#added++;
    const ring = this.#ring;
    if (ring.length < this.keep) {
      ring.push(source);
      this.#makers.push(maker as SignalMaker<unknown>);
      this.#branchIds.push(branchId);
      this.#times.push(createdAt);
    } else {
      const at = this.#head;
      if (this.#makers[at] !== null) this.#deferred--;
      ring[at] = source;
      this.#makers[at] = maker as SignalMaker<unknown>;
      this.#branchIds[at] = branchId;
      this.#times[at] = createdAt;
      this.#head = (at + 1) % ring.length;
    }
    this.#deferred++;
  }

  has(id: string): boolean {
    if (!this.#indexed) this.#buildIndex();
    const added = this.#ids.get(id) ?? this.#olderIds.get(id);
    return added !== undefined && this.#isKept(added);
  }

  get size(): number {
    return this.#ring.length;
  }

  /** The kept signals in insertion order (a copy). */
  get items(): Signal[] {
    if (this.#deferred > 0) this.#buildDeferred();
    const ring = this.#ring as Signal[];
    return this.#head === 0 ? [...ring] : [...ring.slice(this.#head), ...ring.slice(0, this.#head)];
  }

  /** Builds every deferred signal still kept, oldest first, in place, marked as kept under its number. */
  #buildDeferred(): void {
    const ring = this.#ring;
    const makers = this.#makers;
    const length = ring.length;
    // The ring's oldest entry (at `#head`) was added under this number.
    const first = this.#added - length;
    for (let offset = 0; offset < length; offset++) {
      const i = (this.#head + offset) % length;
      const maker = makers[i];
      if (maker === null || maker === undefined) continue;
      const signal = maker.build(ring[i], this.#branchIds[i], this.#times[i]!);
      ring[i] = signal;
      makers[i] = null;
      this.#branchIds[i] = undefined;
      keepMarks.mark(signal, this, first + offset);
      this.#deferred--;
    }
  }

  /** Appends `signal` to the progression `name`, creating it on first use. Repeats are kept; past `keep` the oldest go. */
  append(name: string, signal: Signal): void {
    if (typeof signal !== "object" || signal === null || typeof signal.id !== "string") notASignal("Flow.append(name, signal)", signal);
    const list = this.#progressions.get(name);
    if (!list) {
      this.#progressions.set(name, [signal]);
      return;
    }
    list.push(signal);
    // Trim in chunks, so a long stream costs one copy per `keep / 4` appends rather than one per append.
    if (list.length > this.keep + Math.max(1, Math.floor(this.keep / 4))) list.splice(0, list.length - this.keep);
  }

  /** The kept signals of progression `name` in append order (a copy); empty for an unknown name. */
  progression(name: string): Signal[] {
    const list = this.#progressions.get(name);
    if (!list) return [];
    return list.length > this.keep ? list.slice(list.length - this.keep) : [...list];
  }

  get progressionNames(): string[] {
    return [...this.#progressions.keys()];
  }

  /** Whether the signal added under `number` is still in the ring. */
  #isKept(number: number): boolean {
    return number >= 0 && number >= this.#added - this.#ring.length;
  }

  /** Puts `signal` in the ring under the next number, forgetting the oldest once `keep` are kept. */
  #keep(signal: Signal): void {
    keepMarks.mark(signal, this, this.#added++);
    this.#place(signal);
  }

  /** Puts `signal` in the ring, over the oldest once `keep` are kept. */
  #place(signal: Signal): void {
    const ring = this.#ring;
    if (ring.length < this.keep) {
      ring.push(signal);
      this.#makers.push(null);
      this.#branchIds.push(undefined);
      this.#times.push(0);
      return;
    }
    const at = this.#head;
    ring[at] = signal;
    if (this.#makers[at] !== null) {
      this.#makers[at] = null;
      this.#branchIds[at] = undefined;
      this.#deferred--;
    }
    this.#head = (at + 1) % ring.length;
  }

  /** Indexes the kept signals' ids (oldest first, so a repeated id maps to its newest entry). */
  #buildIndex(): void {
    this.#indexed = true;
    const items = this.items;
    const first = this.#added - items.length;
    this.#olderIds = new Map();
    this.#ids = new Map();
    for (let i = 0; i < items.length; i++) this.#ids.set(items[i]!.id, first + i);
  }
}

function notASignal(where: string, value: unknown): never {
  throw new InvalidValueError(`${where}: signal must be a Signal (with a string id), got ${describeValue(value)}`);
}
