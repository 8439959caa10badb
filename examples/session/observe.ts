// observe(): type keys, predicates, filters, roles and the decorator form.
import assert from "node:assert/strict";
import { HookPoint, HookSignal, Signal, SessionObserver, field } from "@hooklens/runtime";

class Plan {
  constructor(readonly steps: string[]) {}
}

const observer = new SessionObserver();
const seen: string[] = [];

// A class key hands the handler the unwrapped payload, typed as a Plan.
observer.observe(Plan, (plan) => void seen.push(`plan with ${plan.steps.length} steps`));

// A signal class key also matches the envelope itself.
observer.observe(HookSignal, (signal) => void seen.push(`hook ${signal.point}`));

// Several keys are AND-ed; pass the handler in the options to keep a predicate a predicate.
observer.observe(Plan, (p: unknown) => (p as Plan).steps.includes("ship"), {
  handler: () => void seen.push("a plan that ships"),
});

// Filter objects and roles.
observer.observe(field("status").eq("failed"), { handler: () => void seen.push("something failed") });
observer.observe({ role: "critic", handler: (data) => void seen.push(`critic said ${String(data)}`) });

// Without a handler, observe returns a decorator that registers the function it is given.
const onAnySignal = observer.observe(Signal)((signal) => void seen.push(`signal ${signal.constructor.name}`));

await observer.emit(new Plan(["build", "ship"]));
await observer.emit(new HookSignal(HookPoint.SESSION_START, { sessionId: "s1" }));
await observer.emit({ status: "failed" });
await observer.emit(new Signal({ data: "too vague", emitterRole: "critic" }));
console.log(seen.join("\n"));

assert.equal(observer.unobserve(onAnySignal), 1);

// The trap: with two keys and no handler option, a last function is taken as the handler.
const trap = new SessionObserver();
const isLong = (plan: Plan) => plan.steps.length > 3;
assert.equal(trap.observe(Plan, isLong), isLong);
assert.deepEqual(await trap.emit(new Plan([])), [false]); // isLong ran as the handler
