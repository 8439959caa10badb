import { isThenable } from "../shared/async.js";
import { getLogger } from "../shared/log.js";
import { InvalidValueError } from "../shared/errors.js";
import { describeError } from "./describe.js";
import { AllOfFilter, Filter, RoleFilter, RoleKeyFilter, TypeFilter, asFilter, isCondition, isInstance } from "./filters.js";
import type { Gate, ObserveOptions, RouteCondition } from "./observeTypes.js";
import type { Signal } from "./signal.js";

// What a SessionObserver asks of its subscriptions, routes and gate: which values a subscription
// is called with, whether a route takes an event, and what the gate decided and why.

export function buildFilter(keys: unknown[], role: string | null): Filter<unknown> {
  if (keys.length === 0) {
    if (role === null) throw new InvalidValueError("observe() requires at least one condition or 'role'");
    return new RoleFilter(role);
  }
  const key = keys.length === 1 ? asFilter(keys[0]) : new AllOfFilter(keys.map(asFilter));
  return role === null ? key : new RoleKeyFilter(key, role);
}

/**
 * The values a subscription is called with for one event. A role filter looks at the envelope;
 * anything else at the payload, and a single class key also matches the envelope itself.
 */
export function matchValues(filter: Filter<unknown>, signal: Signal, payload: unknown): unknown[] {
  if (filter instanceof RoleFilter) return filter.matches(signal);
  if (filter instanceof RoleKeyFilter) return signal.emitterRole === filter.role ? filter.key.matches(payload) : [];
  const values = filter.matches(payload);
  if (signal !== payload && filter instanceof TypeFilter && isInstance(signal, filter.type)) return [...values, signal];
  return values;
}

export function testCondition(condition: RouteCondition, payload: unknown): unknown {
  return condition instanceof Filter ? condition.test(payload) : condition(payload);
}

const ALLOWED = { allowed: true, reason: "" } as const;

/** The gate's answer for `subject`, and why it said no: the falsy value it returned, or the error it threw. */
export async function decide(gate: Gate, subject: unknown): Promise<{ allowed: boolean; reason: string }> {
  try {
    const out = gate(subject);
    const value: unknown = isThenable(out) ? await out : out;
    if (value) return ALLOWED;
    return { allowed: false, reason: `the gate returned ${typeof value === "string" ? '""' : String(value)}` };
  } catch (error) {
    getLogger().warn({ err: error }, `Observer gate threw, counted as a denial: ${describeError(error)}`);
    return { allowed: false, reason: `the gate threw ${describeError(error)}` };
  }
}

export function isOptionsObject(value: unknown): value is ObserveOptions {
  if (value === null || typeof value !== "object" || isCondition(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export function looksLikeHandler(value: unknown): boolean {
  return typeof value === "function" && !isCondition(value);
}
