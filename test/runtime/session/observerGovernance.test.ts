import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GateDenied, HookBus, HookPoint, HookSignal, SessionObserver, Signal, ToolCallAction } from "@hooklens/runtime";
import { captureLogs, type CapturedLog } from "../../helpers/captureLogs.js";

let logs: CapturedLog[];
let restore: () => void;
beforeEach(() => ({ logs, restore } = captureLogs()));
afterEach(() => restore());

const rm = () => new ToolCallAction({ function: "rm", arguments: { path: "/" }, branchId: "b" });

describe("observer gate on emit", () => {
  it("calls the gate with the payload, not the envelope", async () => {
    const observer = new SessionObserver();
    const seen: unknown[] = [];
    observer.gate((payload) => {
      seen.push(payload);
      return true;
    });
    await observer.emit(new Signal({ data: "payload" }));
    expect(seen).toEqual(["payload"]);
  });

  it("a denied event is stored but reaches no subscriber and no route, and emit returns []", async () => {
    const observer = new SessionObserver();
    let calls = 0;
    observer.observe(Signal, () => void calls++);
    observer.route(() => true, { into: "all" });
    observer.gate(() => false);
    const signal = new Signal({ data: 1 });
    expect(await observer.emit(signal)).toEqual([]);
    expect(observer.flow.has(signal.id)).toBe(true);
    expect(calls).toBe(0);
    expect(observer.stream("all")).toEqual([]);
  });

  it("a denied HookSignal stays stored while subscribers do not receive it", async () => {
    const observer = new SessionObserver();
    const seen: unknown[] = [];
    observer.observe(HookSignal, (s) => void seen.push(s));
    observer.gate(() => false);
    await new HookBus(observer).emit(HookPoint.SESSION_START, { sessionId: "s" });
    expect(observer.byType(HookSignal)).toHaveLength(1);
    expect(seen).toEqual([]);
  });

  it("a gate that throws denies, and the failure is logged", async () => {
    const observer = new SessionObserver();
    let calls = 0;
    observer.observe(Signal, () => void calls++);
    observer.gate(() => {
      throw new Error("gate broke");
    });
    expect(await observer.emit(1)).toEqual([]);
    expect(calls).toBe(0);
    expect(logs.some((l) => l.msg.includes("gate broke"))).toBe(true);
  });

  it("an async gate is awaited", async () => {
    const observer = new SessionObserver();
    observer.observe(Signal, () => "dispatched");
    observer.gate(async (p) => p === "yes");
    expect(await observer.emit("yes")).toEqual(["dispatched"]);
    expect(await observer.emit("no")).toEqual([]);
  });

  it("gate sets one gate: a second call replaces the first, and null removes it", async () => {
    const observer = new SessionObserver();
    observer.observe(Signal, () => "dispatched");
    observer.gate(() => false).gate(() => true);
    expect(await observer.emit(1)).toEqual(["dispatched"]);
    observer.gate(() => false).gate(null);
    expect(await observer.emit(2)).toEqual(["dispatched"]);
  });

  it("one gate serves emit and authorize: a gate written for tool actions denies every other emitted payload", async () => {
    const observer = new SessionObserver();
    let calls = 0;
    observer.observe(Signal, () => void calls++);
    observer.gate((action) => (action as ToolCallAction).function.startsWith("safe_"));
    expect(await observer.authorize(new ToolCallAction({ function: "safe_read" }))).toBe(true);
    expect(await observer.emit({ note: "not an action" })).toEqual([]);
    expect(calls).toBe(0);
    expect(observer.flow.size).toBe(1);
  });
});

describe("observer authorize", () => {
  it("allows any action when no gate is set and stores nothing", async () => {
    const observer = new SessionObserver();
    expect(await observer.authorize(rm())).toBe(true);
    expect(observer.flow.size).toBe(0);
  });

  it("returns the gate's verdict for the action", async () => {
    const observer = new SessionObserver();
    const seen: unknown[] = [];
    observer.gate((action) => {
      seen.push(action);
      return (action as ToolCallAction).function !== "rm";
    });
    const ls = new ToolCallAction({ function: "ls" });
    expect(await observer.authorize(ls)).toBe(true);
    expect(await observer.authorize(rm())).toBe(false);
    expect(seen[0]).toBe(ls);
  });

  it("a throwing gate denies the action", async () => {
    const observer = new SessionObserver();
    observer.gate(() => {
      throw new Error("no");
    });
    expect(await observer.authorize(rm())).toBe(false);
  });

  it("a denial stores a GateDenied carrying the action, found by byType(GateDenied)", async () => {
    const observer = new SessionObserver();
    observer.gate(() => false);
    const action = rm();
    await observer.authorize(action);
    const [denied] = observer.byType(GateDenied);
    expect(denied!.data).toBe(action);
  });

  it("a denial reaches no subscriber and no route", async () => {
    const observer = new SessionObserver();
    let calls = 0;
    observer.observe(GateDenied, () => void calls++);
    observer.observe(Signal, () => void calls++);
    observer.route(() => true, { into: "all" });
    observer.gate(() => false);
    await observer.authorize(rm());
    expect(calls).toBe(0);
    expect(observer.stream("all")).toEqual([]);
    expect(observer.byType(GateDenied)).toHaveLength(1);
  });
});
