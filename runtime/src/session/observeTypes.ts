import type { Constructor, Filter, ObserveKey } from "./filters.js";
import type { SessionObserver } from "./observer.js";
import type { Session } from "./session.js";

/** What a subscriber gets as its second argument: the owning Session, or the observer when it has none. */
export type ObserverContext = Session | SessionObserver;

/** A subscriber: called with each matched value (sync or async). */
export type ObserverHandler<T = unknown> = (value: T, context: ObserverContext) => unknown;

/** The form `observe` returns when no handler is given: it registers the function and returns it. */
export type ObserverDecorator<T> = <H extends ObserverHandler<T>>(handler: H) => H;

/** A governance check on an emitted payload or an authorized action; truthy allows, a throw denies. */
export type Gate = (subject: unknown) => unknown;

/** A route condition: a predicate on the payload, or a Filter. */
export type RouteCondition = ((payload: unknown) => unknown) | Filter<unknown>;

/** The value type a subscriber for key `K` receives. */
export type MatchOf<K> = K extends NumberConstructor
  ? number
  : K extends StringConstructor
    ? string
    : K extends BooleanConstructor
      ? boolean
      : K extends Constructor<infer T>
        ? T
        : K extends Filter<infer T>
          ? T
          : K extends (payload: unknown) => payload is infer T
            ? T
            : unknown;

export interface ObserveOptions<T = unknown> {
  handler?: ObserverHandler<T> | null;
  /** Match only envelopes whose `emitterRole` is this. */
  role?: string | null;
}

type WithHandler<T> = ObserveOptions<T> & { handler: ObserverHandler<T> };
type WithoutHandler = { role?: string | null; handler?: null };

/**
 * `observe(...keys, options?)`. Keys are AND-ed. When no handler is given and there are two or
 * more keys, a last key that is a function but not a class is taken as the handler, so
 * `observe(Type, predicate)` registers the predicate as a handler. Without a handler the call
 * returns a decorator.
 */
export interface ObserveFunction {
  <K extends ObserveKey>(key: K, handler: ObserverHandler<MatchOf<K>>): ObserverHandler<MatchOf<K>>;
  <K extends ObserveKey>(key: K, options: WithHandler<MatchOf<K>>): ObserverHandler<MatchOf<K>>;
  <K extends ObserveKey>(key: K, options?: WithoutHandler): ObserverDecorator<MatchOf<K>>;
  (options: WithHandler<unknown> & { role: string }): ObserverHandler<unknown>;
  (options: WithoutHandler & { role: string }): ObserverDecorator<unknown>;
  (...keysThenHandler: [ObserveKey, ...ObserveKey[], ObserverHandler<unknown>]): ObserverHandler<unknown>;
  (...keysThenOptions: [ObserveKey, ...ObserveKey[], WithHandler<unknown>]): ObserverHandler<unknown>;
  (...keys: [ObserveKey, ObserveKey, ...ObserveKey[]]): ObserverDecorator<unknown>;
  (...keysThenOptions: [ObserveKey, ObserveKey, ...ObserveKey[], WithoutHandler]): ObserverDecorator<unknown>;
}
