import { InvalidValueError } from "../shared/errors.js";
import { getLogger } from "../shared/log.js";
import { describeError, typeName } from "./describe.js";
import { describeValue, optionsObject, requireArray, requireFunction, requireName } from "../shared/arguments.js";

/** Any class, including the built-in ones (`Number`, `Error`, `Map`, …). */
export type Constructor<T = unknown> = abstract new (...args: never[]) => T;

/** A boolean test on an emitted payload. */
export type Predicate = (payload: unknown) => unknown;

/** The method an object implements to turn itself into a Filter when used as a key. */
export const AS_FILTER: unique symbol = Symbol.for("hooklens.asFilter");

/** An object that can stand for a Filter, e.g. a status constant that means "status equals me". */
export interface FilterSource {
  [AS_FILTER](): Filter<unknown>;
}

/** Anything `observe` accepts as a condition. */
export type ObserveKey = Constructor<unknown> | Filter<unknown> | FilterSource | Predicate;

/**
 * A condition on a payload. `matches` returns the values a subscriber is called with (none: no
 * match; several: the subscriber runs once per value).
 */
export abstract class Filter<T = unknown> {
  abstract matches(payload: unknown): T[];

  constructor() {
    // A JavaScript subclass that forgot matches() would otherwise fail at the first emit it sees.
    if (typeof this.matches !== "function") {
      throw new InvalidValueError(`new ${new.target.name}(): a Filter subclass must implement matches(payload) returning an array, got ${describeValue(this.matches)}`);
    }
  }

  /** True when {@link matches} returns anything. */
  test(payload: unknown): boolean {
    return this.matches(payload).length > 0;
  }

  and(other: Filter<unknown>): Filter<unknown> {
    return new SpecFilter((p) => this.test(p) && other.test(p));
  }

  or(other: Filter<unknown>): Filter<unknown> {
    return new SpecFilter((p) => this.test(p) || other.test(p));
  }

  not(): Filter<unknown> {
    return new SpecFilter((p) => !this.test(p));
  }
}

const PRIMITIVE_TYPES = new Map<unknown, string>([
  [Number, "number"],
  [String, "string"],
  [Boolean, "boolean"],
  [BigInt, "bigint"],
  [Symbol, "symbol"],
]);

/** `instanceof`, extended so that `Number`, `String`, … also match primitives of that kind. */
export function isInstance(value: unknown, type: Constructor<unknown>): boolean {
  const primitive = PRIMITIVE_TYPES.get(type);
  if (primitive !== undefined && typeof value === primitive) return true;
  try {
    return value instanceof type;
  } catch {
    return false;
  }
}

/**
 * Matches a payload of type `T`, and otherwise every field value of the payload that is a `T`
 * (own enumerable properties of an object, the values of a Map; arrays and primitives have no
 * fields). One payload can therefore match several times.
 */
export class TypeFilter<T> extends Filter<T> {
  constructor(readonly type: Constructor<T>) {
    super();
    requireFunction(type, "new TypeFilter(type) / ofType(type)", "type (a class)");
  }

  matches(payload: unknown): T[] {
    if (isInstance(payload, this.type)) return [payload as T];
    return fieldValues(payload).filter((value): value is T => isInstance(value, this.type));
  }
}

function fieldValues(payload: unknown): unknown[] {
  if (payload === null || typeof payload !== "object" || Array.isArray(payload)) return [];
  try {
    return payload instanceof Map ? [...payload.values()] : Object.values(payload);
  } catch {
    return [];
  }
}

/**
 * Matches the payload itself when the predicate returns something truthy. A predicate that
 * throws is no match; the error is logged as a warning unless the filter is `safe`.
 */
export class SpecFilter extends Filter<unknown> {
  constructor(
    readonly predicate: Predicate,
    readonly options: { safe?: boolean } = {},
  ) {
    super();
    requireFunction(predicate, "new SpecFilter(predicate, options) / where(predicate)", "predicate");
    optionsObject(options, "new SpecFilter(predicate, options) / where(predicate)");
  }

  matches(payload: unknown): unknown[] {
    try {
      return this.predicate(payload) ? [payload] : [];
    } catch (error) {
      if (!this.options.safe) getLogger().warn({ err: error }, `observe() predicate failed: ${describeError(error)}`);
      return [];
    }
  }
}

/** Several conditions that must all hold; matches the payload once. */
export class AllOfFilter extends SpecFilter {
  constructor(readonly filters: readonly Filter<unknown>[]) {
    super((payload) => filters.every((filter) => filter.test(payload)));
    for (const filter of requireArray(filters, "new AllOfFilter(filters)", "filters")) {
      if (!(filter instanceof Filter)) throw new InvalidValueError(`new AllOfFilter(filters): each filter must be a Filter, got ${describeValue(filter)}`);
    }
  }
}

/**
 * Matches on the emitting role of the envelope, not on the payload: its value is the envelope's
 * data, or the envelope when it has none. Inside several keys it sees only the payload, so it never
 * matches there; use the `role` option instead.
 */
export class RoleFilter extends Filter<unknown> {
  constructor(readonly role: string) {
    super();
    requireName(role, "new RoleFilter(role)", "role");
  }

  matches(event: unknown): unknown[] {
    if (!isEnvelopeWithRole(event) || event.emitterRole !== this.role) return [];
    return [event.data ?? event];
  }
}

/** A condition that applies only to envelopes emitted by `role`. */
export class RoleKeyFilter<T> extends Filter<T> {
  constructor(
    readonly key: Filter<T>,
    readonly role: string,
  ) {
    super();
    if (!(key instanceof Filter)) throw new InvalidValueError(`new RoleKeyFilter(key, role): key must be a Filter, got ${describeValue(key)}`);
    requireName(role, "new RoleKeyFilter(key, role)", "role");
  }

  matches(payload: unknown): T[] {
    return this.key.matches(payload);
  }
}

function isEnvelopeWithRole(event: unknown): event is { emitterRole: unknown; data: unknown } {
  return event !== null && typeof event === "object" && "emitterRole" in event;
}

/**
 * True for a class (an ES `class`, a built-in constructor, or a function whose prototype carries
 * methods). Arrow functions, async functions and plain `function` predicates are not classes.
 */
export function isClassLike(value: unknown): value is Constructor<unknown> {
  if (typeof value !== "function" || !value.prototype) return false;
  const source = Function.prototype.toString.call(value);
  if (source.startsWith("class")) return true;
  if (/\{\s*\[native code\]\s*\}\s*$/.test(source)) return true;
  return Object.getOwnPropertyNames(value.prototype).length > 1;
}

/** True for a class, a Filter or a FilterSource: what `observe` never mistakes for a handler. */
export function isCondition(value: unknown): boolean {
  return value instanceof Filter || isClassLike(value) || isFilterSource(value);
}

function isFilterSource(value: unknown): value is FilterSource {
  return (
    value !== null &&
    (typeof value === "object" || typeof value === "function") &&
    typeof (value as Partial<FilterSource>)[AS_FILTER] === "function"
  );
}

/** Turns one `observe` key into a Filter: a class → TypeFilter, a function → SpecFilter. */
export function asFilter(key: unknown): Filter<unknown> {
  if (key instanceof Filter) return key;
  if (isClassLike(key)) return new TypeFilter(key);
  if (isFilterSource(key)) {
    const filter: unknown = key[AS_FILTER]();
    if (!(filter instanceof Filter)) throw new InvalidValueError(`[AS_FILTER]() must return a Filter; got ${typeName(filter)}`);
    return filter;
  }
  if (typeof key === "function") return new SpecFilter(key as Predicate);
  throw new InvalidValueError(`Cannot use ${typeName(key)} as an observe() condition; pass a class, a Filter or a predicate`);
}

/** A Filter for a value of type `T` (the explicit spelling of passing a class as a key). */
export function ofType<T>(type: Constructor<T>): TypeFilter<T> {
  return new TypeFilter(type);
}

/** A Filter from a predicate (the explicit spelling of passing a function as a key). */
export function where(predicate: Predicate, options: { safe?: boolean } = {}): SpecFilter {
  return new SpecFilter(predicate, options);
}
