import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  DORMANT_HOOK_POINTS,
  HookBus,
  HookPoint,
  HookSignal,
  InvalidValueError,
  SessionObserver,
  StopHook,
  hook,
  markedPoint,
  type HookHandler,
} from "@hooklens/runtime";
import { captureLogs, type CapturedLog } from "../../helpers/captureLogs.js";

let logs: CapturedLog[];
let restore: () => void;
beforeEach(() => ({ logs, restore } = captureLogs()));
afterEach(() => restore());

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("HookPoint vocabulary", () => {
  it("has exactly eleven members with the exact string values", () => {
    expect(Object.entries(HookPoint)).toEqual([
      ["SESSION_START", "session.start"],
      ["SESSION_END", "session.end"],
      ["BRANCH_CREATE", "branch.create"],
      ["API_PRE_CALL", "api.pre_call"],
      ["API_POST_CALL", "api.post_call"],
      ["API_STREAM_CHUNK", "api.stream_chunk"],
      ["TOOL_PRE", "tool.pre"],
      ["TOOL_POST", "tool.post"],
      ["TOOL_ERROR", "tool.error"],
      ["MESSAGE_ADD", "message.add"],
      ["ARTIFACT_CREATED", "artifact.created"],
    ]);
  });

  it("lists the four dormant points", () => {
    expect([...DORMANT_HOOK_POINTS].sort()).toEqual(
      [HookPoint.API_PRE_CALL, HookPoint.API_POST_CALL, HookPoint.API_STREAM_CHUNK, HookPoint.ARTIFACT_CREATED].sort(),
    );
  });
});

describe("HookBus registration", () => {
  it("accepts enum members and exact string values for the same point", async () => {
    const bus = new HookBus();
    const calls: string[] = [];
    bus.on(HookPoint.TOOL_POST, () => void calls.push("member"));
    bus.on("tool.post", () => void calls.push("string"));
    await bus.emit("tool.post", { toolName: "t", callId: "c", resultSummary: "", duration: 0 });
    expect(calls).toEqual(["member", "string"]);
  });

  it("rejects an unknown point on on/off/handlersFor with an error listing the valid values", () => {
    const bus = new HookBus();
    const noop = () => undefined;
    for (const attempt of [
      () => bus.on("TOOL_PRE" as HookPoint, noop),
      () => bus.off("tool.pree" as HookPoint, noop),
      () => bus.handlersFor("nope" as HookPoint),
    ]) {
      expect(attempt).toThrow(InvalidValueError);
      expect(attempt).toThrow(/valid values: .*artifact\.created.*tool\.pre/);
    }
  });

  it("rejects an unknown point on emit and blockingEmit before running anything", async () => {
    const bus = new HookBus();
    await expect(bus.emit("bogus" as HookPoint)).rejects.toThrow(InvalidValueError);
    await expect(bus.blockingEmit("bogus" as HookPoint)).rejects.toThrow(/Unknown hook point "bogus"/);
  });

  it("allows duplicate registrations and runs each one", async () => {
    const bus = new HookBus();
    let count = 0;
    const handler = () => void count++;
    bus.on(HookPoint.SESSION_START, handler);
    bus.on(HookPoint.SESSION_START, handler);
    await bus.emit(HookPoint.SESSION_START, { sessionId: "s" });
    expect(count).toBe(2);
  });

  it("off removes only the first equal registration; a missing handler is a no-op", () => {
    const bus = new HookBus();
    const a: HookHandler = () => "a";
    const b: HookHandler = () => "b";
    bus.on(HookPoint.SESSION_END, a);
    bus.on(HookPoint.SESSION_END, b);
    bus.on(HookPoint.SESSION_END, a);
    bus.off(HookPoint.SESSION_END, a);
    expect(bus.handlersFor(HookPoint.SESSION_END)).toEqual([b, a]);
    bus.off(HookPoint.SESSION_END, () => undefined);
    bus.off(HookPoint.BRANCH_CREATE, a);
    expect(bus.handlersFor(HookPoint.SESSION_END)).toEqual([b, a]);
  });

  it("on returns a disposer that removes that registration", () => {
    const bus = new HookBus();
    const dispose = bus.on(HookPoint.TOOL_ERROR, () => undefined);
    dispose();
    expect(bus.handlersFor(HookPoint.TOOL_ERROR)).toEqual([]);
  });

  it("handlersFor returns a copy: mutating it leaves the bus unchanged", () => {
    const bus = new HookBus();
    const a = () => undefined;
    bus.on(HookPoint.TOOL_POST, a);
    const copy = bus.handlersFor(HookPoint.TOOL_POST);
    copy.push(() => undefined);
    copy.length = 0;
    expect(bus.handlersFor(HookPoint.TOOL_POST)).toEqual([a]);
    expect(bus.handlersFor(HookPoint.SESSION_START)).toEqual([]);
  });
});

describe("HookBus emission", () => {
  it("snapshots the chain: handlers added or removed while it runs affect only later emissions", async () => {
    const bus = new HookBus();
    const calls: string[] = [];
    const late = () => void calls.push("late");
    const second = () => void calls.push("second");
    bus.on(HookPoint.BRANCH_CREATE, () => {
      calls.push("first");
      bus.on(HookPoint.BRANCH_CREATE, late);
      bus.off(HookPoint.BRANCH_CREATE, second);
    });
    bus.on(HookPoint.BRANCH_CREATE, second);
    await bus.emit(HookPoint.BRANCH_CREATE, { branchId: "b" });
    expect(calls).toEqual(["first", "second"]);
    calls.length = 0;
    await bus.emit(HookPoint.BRANCH_CREATE, { branchId: "b" });
    expect(calls).toEqual(["first", "late"]);
    expect(bus.handlersFor(HookPoint.BRANCH_CREATE)).toHaveLength(3);
  });

  it("awaits async handlers sequentially in registration order, mixed with sync ones", async () => {
    const bus = new HookBus();
    const calls: string[] = [];
    bus.on(HookPoint.SESSION_START, async () => {
      await tick();
      calls.push("slow async");
    });
    bus.on(HookPoint.SESSION_START, () => void calls.push("sync"));
    bus.on(HookPoint.SESSION_START, async () => void calls.push("fast async"));
    await bus.emit(HookPoint.SESSION_START, { sessionId: "s" });
    expect(calls).toEqual(["slow async", "sync", "fast async"]);
  });

  it("awaits a promise-like returned by a sync handler", async () => {
    const bus = new HookBus();
    const calls: string[] = [];
    bus.on(HookPoint.SESSION_END, () => ({ then: (resolve: () => void) => setImmediate(() => (calls.push("thenable"), resolve())) }));
    bus.on(HookPoint.SESSION_END, () => void calls.push("next"));
    await bus.emit(HookPoint.SESSION_END, { sessionId: "s" });
    expect(calls).toEqual(["thenable", "next"]);
  });

  it("passes the payload object to every handler", async () => {
    const bus = new HookBus();
    const seen: unknown[] = [];
    bus.on(HookPoint.TOOL_PRE, (p) => void seen.push(p.argsSummary));
    await bus.emit(HookPoint.TOOL_PRE, { toolName: "t", callId: "c", argsSummary: "{}" });
    expect(seen).toEqual(["{}"]);
  });

  it("emitting a point with no handlers is valid", async () => {
    await expect(new HookBus().emit(HookPoint.SESSION_END, { sessionId: "s" })).resolves.toBeUndefined();
  });

  it("StopHook stops the remaining handlers of that point and is swallowed", async () => {
    const bus = new HookBus();
    const calls: string[] = [];
    bus.on(HookPoint.SESSION_START, () => void calls.push("one"));
    bus.on(HookPoint.SESSION_START, async () => {
      calls.push("two");
      throw new StopHook();
    });
    bus.on(HookPoint.SESSION_START, () => void calls.push("three"));
    await expect(bus.emit(HookPoint.SESSION_START, { sessionId: "s" })).resolves.toBeUndefined();
    expect(calls).toEqual(["one", "two"]);
  });

  it("a sync StopHook stops the chain too", async () => {
    const bus = new HookBus();
    const calls: string[] = [];
    bus.on(HookPoint.SESSION_END, () => {
      throw new StopHook();
    });
    bus.on(HookPoint.SESSION_END, () => void calls.push("never"));
    await bus.emit(HookPoint.SESSION_END, { sessionId: "s" });
    expect(calls).toEqual([]);
  });

  it("at a non-blocking point a failing handler is logged and the next one runs", async () => {
    const bus = new HookBus();
    const calls: string[] = [];
    bus.on(HookPoint.TOOL_POST, () => {
      throw new Error("sync boom");
    });
    bus.on(HookPoint.TOOL_POST, async () => {
      throw new TypeError("async boom");
    });
    bus.on(HookPoint.TOOL_POST, () => void calls.push("after"));
    await expect(bus.emit(HookPoint.TOOL_POST, { toolName: "t", callId: "c", resultSummary: "", duration: 0 })).resolves.toBeUndefined();
    expect(calls).toEqual(["after"]);
    const errors = logs.filter((l) => l.level === "error").map((l) => l.msg);
    expect(errors).toEqual(["Hook failed at tool.post: Error: sync boom", "Hook failed at tool.post: TypeError: async boom"]);
  });

  it("TOOL_PRE blocks: a handler error propagates and later handlers do not run", async () => {
    const bus = new HookBus();
    const calls: string[] = [];
    const guardError = new Error("denied by guard");
    bus.on(HookPoint.TOOL_PRE, () => void calls.push("first"));
    bus.on(HookPoint.TOOL_PRE, async () => {
      throw guardError;
    });
    bus.on(HookPoint.TOOL_PRE, () => void calls.push("never"));
    await expect(bus.emit(HookPoint.TOOL_PRE, { toolName: "t", callId: "c", argsSummary: "" })).rejects.toBe(guardError);
    expect(calls).toEqual(["first"]);
  });

  it("TOOL_PRE blocks on a synchronous throw as well", async () => {
    const bus = new HookBus();
    bus.on(HookPoint.TOOL_PRE, () => {
      throw new RangeError("sync guard");
    });
    await expect(bus.emit(HookPoint.TOOL_PRE, { toolName: "t", callId: "c", argsSummary: "" })).rejects.toThrow("sync guard");
  });

  it("a StopHook at TOOL_PRE only stops sibling handlers; the emission succeeds", async () => {
    const bus = new HookBus();
    const calls: string[] = [];
    bus.on(HookPoint.TOOL_PRE, () => {
      throw new StopHook();
    });
    bus.on(HookPoint.TOOL_PRE, () => void calls.push("sibling"));
    await expect(bus.emit(HookPoint.TOOL_PRE, { toolName: "t", callId: "c", argsSummary: "" })).resolves.toBeUndefined();
    expect(calls).toEqual([]);
  });

  it("blockingEmit propagates handler errors at any point", async () => {
    const bus = new HookBus();
    bus.on(HookPoint.SESSION_END, () => {
      throw new Error("stop the world");
    });
    await expect(bus.blockingEmit(HookPoint.SESSION_END, { sessionId: "s" })).rejects.toThrow("stop the world");
  });
});

describe("HookBus recording through a bound observer", () => {
  const toolPost = { toolName: "t", callId: "c", resultSummary: "ok", duration: 0.5 };

  it("records a HookSignal after the chain, with the point as its string value and a copy of the payload", async () => {
    const observer = new SessionObserver();
    const bus = new HookBus(observer);
    const order: string[] = [];
    bus.on(HookPoint.TOOL_POST, () => void order.push(`handler (recorded: ${observer.byType(HookSignal).length})`));
    const payload = { ...toolPost };
    await bus.emit(HookPoint.TOOL_POST, payload);
    const [signal] = observer.byType(HookSignal);
    expect(order).toEqual(["handler (recorded: 0)"]);
    expect(signal?.point).toBe("tool.post");
    expect(signal?.payload).toEqual(toolPost);
    expect(signal?.payload).not.toBe(payload);
  });

  it("records an emission with no handlers", async () => {
    const observer = new SessionObserver();
    await new HookBus(observer).emit(HookPoint.SESSION_START, { sessionId: "s" });
    expect(observer.byType(HookSignal).map((s) => s.point)).toEqual(["session.start"]);
  });

  it("records after a StopHook short-circuit and after isolated failures", async () => {
    const observer = new SessionObserver();
    const bus = new HookBus(observer);
    bus.on(HookPoint.SESSION_END, () => {
      throw new Error("isolated");
    });
    bus.on(HookPoint.SESSION_START, () => {
      throw new StopHook();
    });
    await bus.emit(HookPoint.SESSION_END, { sessionId: "s" });
    await bus.emit(HookPoint.SESSION_START, { sessionId: "s" });
    expect(observer.byType(HookSignal).map((s) => s.point)).toEqual(["session.end", "session.start"]);
  });

  it("records nothing when a TOOL_PRE guard raises", async () => {
    const observer = new SessionObserver();
    const bus = new HookBus(observer);
    bus.on(HookPoint.TOOL_PRE, () => {
      throw new Error("denied");
    });
    await expect(bus.emit(HookPoint.TOOL_PRE, { toolName: "t", callId: "c", argsSummary: "" })).rejects.toThrow();
    expect(observer.byType(HookSignal)).toEqual([]);
  });

  it("does not record MESSAGE_ADD through emit, though its handlers still run", async () => {
    const observer = new SessionObserver();
    const bus = new HookBus(observer);
    let ran = false;
    bus.on(HookPoint.MESSAGE_ADD, () => void (ran = true));
    await bus.emit(HookPoint.MESSAGE_ADD, { branchId: "b", message: {} });
    expect(ran).toBe(true);
    expect(observer.byType(HookSignal)).toEqual([]);
  });

  it("blockingEmit records MESSAGE_ADD (the suppression lives only in emit)", async () => {
    const observer = new SessionObserver();
    await new HookBus(observer).blockingEmit(HookPoint.MESSAGE_ADD, { branchId: "b", message: {} });
    expect(observer.byType(HookSignal).map((s) => s.point)).toEqual(["message.add"]);
  });

  it("logs and swallows an observer failure after the chain completed", async () => {
    const failing = { emit: () => Promise.reject(new Error("disk full")) };
    const bus = new HookBus(failing);
    let ran = false;
    bus.on(HookPoint.SESSION_END, () => void (ran = true));
    await expect(bus.emit(HookPoint.SESSION_END, { sessionId: "s" })).resolves.toBeUndefined();
    expect(ran).toBe(true);
    expect(logs.some((l) => l.level === "error" && l.msg.includes("could not record session.end: Error: disk full"))).toBe(true);
  });

  it("bind replaces the observer and bind(null) unbinds it", async () => {
    const first = new SessionObserver();
    const second = new SessionObserver();
    const bus = new HookBus(first);
    expect(bus.bind(second)).toBe(bus);
    await bus.emit(HookPoint.SESSION_START, { sessionId: "s" });
    bus.bind(null);
    await bus.emit(HookPoint.SESSION_START, { sessionId: "s" });
    expect(first.byType(HookSignal)).toHaveLength(0);
    expect(second.byType(HookSignal)).toHaveLength(1);
  });
});

describe("hook(point) marker", () => {
  it("marks the function with its point and registers nothing", async () => {
    const observer = new SessionObserver();
    const bus = new HookBus(observer);
    const fn = hook("tool.post")(() => "x");
    expect(markedPoint(fn)).toBe(HookPoint.TOOL_POST);
    expect(fn()).toBe("x");
    expect(bus.handlersFor(HookPoint.TOOL_POST)).toEqual([]);
  });

  it("validates the point immediately", () => {
    expect(() => hook("tool.nope" as HookPoint)).toThrow(InvalidValueError);
  });
});
