import type { Signal } from "./signal.js";

/**
 * The observer's record: every stored signal once, in insertion order, plus named streams
 * (progressions) that list signals again in the order they were routed there.
 */
export class Flow {
  readonly #items = new Map<string, Signal>();
  readonly #progressions = new Map<string, Signal[]>();

  constructor(readonly name: string) {}

  /** Stores `signal` unless a signal with its id is stored; returns whether it was new. */
  add(signal: Signal): boolean {
    if (this.#items.has(signal.id)) return false;
    this.#items.set(signal.id, signal);
    return true;
  }

  has(id: string): boolean {
    return this.#items.has(id);
  }

  get size(): number {
    return this.#items.size;
  }

  /** The stored signals in insertion order (a copy). */
  get items(): Signal[] {
    return [...this.#items.values()];
  }

  /** Appends `signal` to the progression `name`, creating it on first use. Repeats are kept. */
  append(name: string, signal: Signal): void {
    const list = this.#progressions.get(name);
    if (list) list.push(signal);
    else this.#progressions.set(name, [signal]);
  }

  /** The signals of progression `name` in append order (a copy); empty for an unknown name. */
  progression(name: string): Signal[] {
    return [...(this.#progressions.get(name) ?? [])];
  }

  get progressionNames(): string[] {
    return [...this.#progressions.keys()];
  }
}
