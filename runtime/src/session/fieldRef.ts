import { SpecFilter } from "./filters.js";
import { requireName } from "../shared/arguments.js";

const MISSING = Symbol("missing");

/**
 * A reference to a (dotted) field of the payload, read as a property or a Map entry. Its
 * comparisons build safe filters: a missing field, or a comparison that throws, is no match.
 */
export class FieldRef {
  readonly #segments: readonly string[];

  constructor(readonly path: string) {
    this.#segments = requireName(path, "new FieldRef(path)", "path (a dotted field name such as \"tool.name\")").split(".");
  }

  eq(value: unknown): SpecFilter {
    return this.#where((actual) => Object.is(actual, value) || actual === value);
  }

  ne(value: unknown): SpecFilter {
    return this.#where((actual) => !(Object.is(actual, value) || actual === value));
  }

  gt(value: number | string | bigint): SpecFilter {
    return this.#where((actual) => (actual as typeof value) > value);
  }

  ge(value: number | string | bigint): SpecFilter {
    return this.#where((actual) => (actual as typeof value) >= value);
  }

  lt(value: number | string | bigint): SpecFilter {
    return this.#where((actual) => (actual as typeof value) < value);
  }

  le(value: number | string | bigint): SpecFilter {
    return this.#where((actual) => (actual as typeof value) <= value);
  }

  isIn(values: Iterable<unknown>): SpecFilter {
    const set = new Set(values);
    return this.#where((actual) => set.has(actual));
  }

  /** The field exists and is neither null nor undefined. */
  present(): SpecFilter {
    return this.#where((actual) => actual !== null && actual !== undefined);
  }

  /** The field's value, or undefined when the path does not exist. */
  read(payload: unknown): unknown {
    const value = this.#read(payload);
    return value === MISSING ? undefined : value;
  }

  #where(test: (actual: unknown) => boolean): SpecFilter {
    return new SpecFilter(
      (payload) => {
        const actual = this.#read(payload);
        return actual !== MISSING && test(actual);
      },
      { safe: true },
    );
  }

  #read(payload: unknown): unknown {
    let current: unknown = payload;
    for (const segment of this.#segments) {
      if (current === null || current === undefined) return MISSING;
      if (current instanceof Map) {
        if (!current.has(segment)) return MISSING;
        current = current.get(segment);
      } else {
        const holder = Object(current) as Record<string, unknown>;
        if (!(segment in holder)) return MISSING;
        current = holder[segment];
      }
    }
    return current;
  }
}

/** A reference to a payload field for building filters: `field("status").eq("failed")`. */
export function field(path: string): FieldRef {
  return new FieldRef(path);
}
