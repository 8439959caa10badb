import { describe, expectTypeOf, it } from "vitest";
import {
  HookSignal,
  SessionObserver,
  TypeFilter,
  type ObserverContext,
  type ObserverDecorator,
  type ObserverHandler,
} from "@hooklens/runtime";

class Plan {
  steps: string[] = [];
}

// These checks run in `npm run typecheck`; at run time they only assert that the calls register.
describe("observe typing", () => {
  it("hands a class key's handler the instance type", () => {
    const observer = new SessionObserver();
    observer.observe(Plan, (plan, context) => {
      expectTypeOf(plan).toEqualTypeOf<Plan>();
      expectTypeOf(context).toEqualTypeOf<ObserverContext>();
    });
    observer.observe(HookSignal, { handler: (signal) => expectTypeOf(signal.point).toEqualTypeOf<HookSignal["point"]>() });
  });

  it("hands a Number key's handler a number and a TypeFilter key's handler its type", () => {
    const observer = new SessionObserver();
    observer.observe(Number, (n) => expectTypeOf(n).toEqualTypeOf<number>());
    observer.observe(new TypeFilter(Plan), (p) => expectTypeOf(p).toEqualTypeOf<Plan>());
  });

  it("narrows through a type-guard key", () => {
    const observer = new SessionObserver();
    const isPlan = (p: unknown): p is Plan => p instanceof Plan;
    observer.observe(isPlan, { handler: (p) => expectTypeOf(p).toEqualTypeOf<Plan>() });
  });

  it("returns a typed decorator without a handler and the handler with one", () => {
    const observer = new SessionObserver();
    expectTypeOf(observer.observe(Plan)).toEqualTypeOf<ObserverDecorator<Plan>>();
    const handler: ObserverHandler<Plan> = () => undefined;
    expectTypeOf(observer.observe(Plan, handler)).toEqualTypeOf<ObserverHandler<Plan>>();
    expectTypeOf(observer.observe({ role: "planner" })).toEqualTypeOf<ObserverDecorator<unknown>>();
  });

  it("types byType of a signal class as that class", () => {
    expectTypeOf(new SessionObserver().byType(HookSignal)).toEqualTypeOf<HookSignal[]>();
  });
});
