import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  InvalidValueError,
  AS_FILTER,
  Filter,
  HookPoint,
  HookSignal,
  MessageAdded,
  Session,
  SessionObserver,
  Signal,
  field,
  ofType,
  where,
  type ObserverHandler,
} from "@hooklens/runtime";
import { captureLogs, type CapturedLog } from "../../helpers/captureLogs.js";

let logs: CapturedLog[];
let restore: () => void;
beforeEach(() => ({ logs, restore } = captureLogs()));
afterEach(() => restore());

class Plan {
  constructor(readonly steps: string[]) {}
}
class Note {
  constructor(readonly text: string) {}
}

describe("observe registration forms", () => {
  it("observe(Type, handler) registers at once and returns the handler", async () => {
    const observer = new SessionObserver();
    const seen: Plan[] = [];
    const handler = (plan: Plan) => void seen.push(plan);
    expect(observer.observe(Plan, handler)).toBe(handler);
    const plan = new Plan(["a"]);
    await observer.emit(plan);
    expect(seen).toEqual([plan]);
  });

  it("observe(Type, { handler }) registers the handler", async () => {
    const observer = new SessionObserver();
    const seen: unknown[] = [];
    observer.observe(Plan, { handler: (plan) => void seen.push(plan.steps) });
    await observer.emit(new Plan(["x"]));
    expect(seen).toEqual([["x"]]);
  });

  it("decorator form: without a handler observe returns a function that registers and returns its argument", async () => {
    const observer = new SessionObserver();
    const seen: unknown[] = [];
    const register = observer.observe(Plan);
    const handler = (plan: Plan) => void seen.push(plan);
    expect(register(handler)).toBe(handler);
    await observer.emit(new Plan([]));
    expect(seen).toHaveLength(1);
  });

  it("the last key looks like a handler: observe(Type, predicate) registers the predicate as the handler", async () => {
    const observer = new SessionObserver();
    const calls: unknown[] = [];
    const isLong = (plan: Plan) => {
      calls.push(plan);
      return plan.steps.length > 2;
    };
    const returned = observer.observe(Plan, isLong);
    expect(returned).toBe(isLong);
    const short = new Plan(["one"]);
    expect(await observer.emit(short)).toEqual([false]);
    expect(calls).toEqual([short]);
  });

  it("with an explicit handler, a last function key is a predicate", async () => {
    const observer = new SessionObserver();
    const seen: Plan[] = [];
    observer.observe(Plan, (p: unknown) => (p as Plan).steps.length > 1, { handler: (p) => void seen.push(p as Plan) });
    await observer.emit(new Plan(["a"]));
    await observer.emit(new Plan(["a", "b"]));
    expect(seen.map((p) => p.steps.length)).toEqual([2]);
  });

  it("a single predicate key matches the payload when it returns something truthy", async () => {
    const observer = new SessionObserver();
    const seen: unknown[] = [];
    observer.observe((p) => typeof p === "string", { handler: (p) => void seen.push(p) });
    await observer.emit("text");
    await observer.emit(42);
    expect(seen).toEqual(["text"]);
  });

  it("a single predicate key alone returns a decorator (the handler rule needs two keys)", () => {
    const observer = new SessionObserver();
    const predicate = (p: unknown) => p === 1;
    const out = observer.observe(predicate);
    expect(out).not.toBe(predicate);
    expect(typeof out).toBe("function");
  });

  it("accepts Filter objects as keys", async () => {
    const observer = new SessionObserver();
    const seen: unknown[] = [];
    observer.observe(field("status").eq("failed"), { handler: (p) => void seen.push(p) });
    await observer.emit({ status: "failed" });
    await observer.emit({ status: "ok" });
    await observer.emit({});
    expect(seen).toEqual([{ status: "failed" }]);
  });

  it("accepts an object with [AS_FILTER] as a key and uses the Filter it returns", async () => {
    const observer = new SessionObserver();
    const failed = { [AS_FILTER]: () => field("status").eq("failed") };
    const seen: unknown[] = [];
    observer.observe(failed, { handler: (p) => void seen.push(p) });
    await observer.emit({ status: "failed" });
    expect(seen).toHaveLength(1);
  });

  it("rejects an [AS_FILTER] that does not return a Filter", () => {
    const observer = new SessionObserver();
    const broken = { [AS_FILTER]: () => "nope" as unknown as Filter };
    expect(() => observer.observe(broken, { handler: () => undefined })).toThrow(InvalidValueError);
  });

  it("rejects a key that is neither a class, a Filter nor a function", () => {
    const observer = new SessionObserver();
    expect(() => observer.observe(42 as never, { handler: () => undefined })).toThrow(/observe\(\) condition/);
  });

  it("raises a clear error when there is no condition and no role", () => {
    const observer = new SessionObserver();
    expect(() => (observer.observe as (...a: unknown[]) => unknown)()).toThrow(
      new InvalidValueError("observe() requires at least one condition or 'role'"),
    );
    expect(() => (observer.observe as (...a: unknown[]) => unknown)({ handler: () => undefined })).toThrow(InvalidValueError);
  });
});

describe("observe matching", () => {
  it("a class key hands the handler the unwrapped payload", async () => {
    const observer = new SessionObserver();
    const seen: unknown[] = [];
    observer.observe(Plan, (p) => void seen.push(p));
    const plan = new Plan(["a"]);
    await observer.emit(new Signal({ data: plan }));
    expect(seen).toEqual([plan]);
  });

  it("a class key matches every field of the payload that is an instance, once each", async () => {
    const observer = new SessionObserver();
    const seen: unknown[] = [];
    observer.observe(Number, (n) => void seen.push(n));
    await observer.emit({ a: 1, b: 2, c: "three" });
    expect(seen).toEqual([1, 2]);
  });

  it("field matching looks one level deep and skips arrays", async () => {
    const observer = new SessionObserver();
    const seen: unknown[] = [];
    observer.observe(Note, (n) => void seen.push(n.text));
    await observer.emit({ direct: new Note("yes"), nested: { deep: new Note("no") } });
    await observer.emit([new Note("in array")]);
    expect(seen).toEqual(["yes"]);
  });

  it("a class key also matches the envelope itself: observe(HookSignal) gets the envelope", async () => {
    const observer = new SessionObserver();
    const seen: unknown[] = [];
    observer.observe(HookSignal, (s) => void seen.push(s));
    const signal = new HookSignal(HookPoint.TOOL_POST, { toolName: "t" });
    await observer.emit(signal);
    expect(seen).toEqual([signal]);
  });

  it("observe(Signal) gets the envelope of every emission, wrapped values included", async () => {
    const observer = new SessionObserver();
    const seen: Signal[] = [];
    observer.observe(Signal, (s) => void seen.push(s));
    await observer.emit({ any: "thing" });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.data).toEqual({ any: "thing" });
  });

  it("several keys are AND-ed and the handler gets the payload once", async () => {
    const observer = new SessionObserver();
    const seen: unknown[] = [];
    observer.observe(Plan, (p: unknown) => (p as Plan).steps.includes("ship"), (p) => void seen.push(p));
    const shipping = new Plan(["build", "ship"]);
    await observer.emit(shipping);
    await observer.emit(new Plan(["build"]));
    await observer.emit({ steps: ["ship"] });
    expect(seen).toEqual([shipping]);
  });

  it("several keys never match the envelope: observe(HookSignal, predicate, handler) never fires", async () => {
    const observer = new SessionObserver();
    const seen: unknown[] = [];
    observer.observe(HookSignal, () => true, (s) => void seen.push(s));
    await observer.emit(new HookSignal(HookPoint.TOOL_POST, {}));
    expect(seen).toEqual([]);
  });

  it("role alone matches envelopes by emitterRole and hands over their data", async () => {
    const observer = new SessionObserver();
    const seen: unknown[] = [];
    observer.observe({ role: "planner", handler: (v) => void seen.push(v) });
    await observer.emit(new Signal({ data: "from planner", emitterRole: "planner" }));
    await observer.emit(new Signal({ data: "from critic", emitterRole: "critic" }));
    expect(seen).toEqual(["from planner"]);
  });

  it("role alone hands over the envelope when it has no data", async () => {
    const observer = new SessionObserver();
    const seen: unknown[] = [];
    observer.observe({ role: "planner", handler: (v) => void seen.push(v) });
    const empty = new Signal({ emitterRole: "planner" });
    await observer.emit(empty);
    expect(seen).toEqual([empty]);
  });

  it("role with a key needs both the role and the key to match", async () => {
    const observer = new SessionObserver();
    const seen: unknown[] = [];
    observer.observe(Plan, { role: "planner", handler: (p) => void seen.push(p) });
    const plan = new Plan(["a"]);
    await observer.emit(new Signal({ data: plan, emitterRole: "planner" }));
    await observer.emit(new Signal({ data: new Plan(["b"]), emitterRole: "critic" }));
    await observer.emit(new Signal({ data: "not a plan", emitterRole: "planner" }));
    expect(seen).toEqual([plan]);
  });

  it("role with a signal class key never matches the envelope", async () => {
    const observer = new SessionObserver();
    const seen: unknown[] = [];
    observer.observe(MessageAdded, { role: "writer", handler: (s) => void seen.push(s) });
    await observer.emit(new MessageAdded({ data: { id: "m" }, emitterRole: "writer" }));
    expect(seen).toEqual([]);
  });

  it("a predicate that throws is no match and is logged as a warning", async () => {
    const observer = new SessionObserver();
    const seen: unknown[] = [];
    observer.observe(
      () => {
        throw new Error("predicate broke");
      },
      { handler: (p) => void seen.push(p) },
    );
    await expect(observer.emit("x")).resolves.toEqual([]);
    expect(seen).toEqual([]);
    expect(logs.some((l) => l.level === "warn" && l.msg.includes("predicate broke"))).toBe(true);
  });

  it("ofType and where are the explicit spellings of a class key and a predicate key", async () => {
    const observer = new SessionObserver();
    const seen: unknown[] = [];
    observer.observe(ofType(Plan).and(where((p) => (p as Plan).steps.length === 0)), { handler: (p) => void seen.push(p) });
    const empty = new Plan([]);
    await observer.emit(empty);
    await observer.emit(new Plan(["x"]));
    expect(seen).toEqual([empty]);
  });

  it("hands subscribers the owning session as context, or the observer when standalone", async () => {
    const session = new Session();
    const standalone = new SessionObserver();
    const contexts: unknown[] = [];
    session.observe(Signal, (_s, context) => void contexts.push(context));
    standalone.observe(Signal, (_s, context) => void contexts.push(context));
    await session.emit(1);
    await standalone.emit(1);
    expect(contexts).toEqual([session, standalone]);
  });
});

describe("unobserve", () => {
  it("removes every registration of the handler and returns how many it removed", async () => {
    const observer = new SessionObserver();
    let calls = 0;
    const handler: ObserverHandler<unknown> = () => void calls++;
    observer.observe(Signal, handler);
    observer.observe(Plan, { handler });
    observer.observe(Note, () => undefined);
    expect(observer.unobserve(handler)).toBe(2);
    expect(observer.unobserve(handler)).toBe(0);
    await observer.emit(new Plan([]));
    expect(calls).toBe(0);
  });
});
