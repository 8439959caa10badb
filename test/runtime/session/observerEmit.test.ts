import { describe, expect, it } from "vitest";
import { HookBus, HookPoint, HookSignal, SessionObserver, Signal, field } from "@hooklens/runtime";

const deferred = <T = void>() => {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
};

describe("SessionObserver.emit storing", () => {
  it("wraps a non-signal value as Signal({ data }) and stores it", async () => {
    const observer = new SessionObserver();
    await observer.emit({ plan: 1 });
    const [stored] = observer.flow.items;
    expect(stored).toBeInstanceOf(Signal);
    expect(stored!.constructor).toBe(Signal);
    expect(stored!.data).toEqual({ plan: 1 });
  });

  it("stores a signal as it is", async () => {
    const observer = new SessionObserver();
    const signal = new Signal({ data: 1 });
    await observer.emit(signal);
    expect(observer.flow.items).toEqual([signal]);
  });

  it("stores the same signal once when it is emitted twice, but dispatches it both times", async () => {
    const observer = new SessionObserver();
    let calls = 0;
    observer.observe(Signal, () => void calls++);
    const signal = new Signal({ data: 1 });
    await observer.emit(signal);
    await observer.emit(signal);
    expect(observer.flow.size).toBe(1);
    expect(calls).toBe(2);
  });
});

describe("SessionObserver.emit results and order", () => {
  it("returns sync results followed by async results", async () => {
    const observer = new SessionObserver();
    observer.observe(Signal, async () => "async first-registered");
    observer.observe(Signal, () => "sync second-registered");
    expect(await observer.emit(1)).toEqual(["sync second-registered", "async first-registered"]);
  });

  it("includes undefined for a sync handler that returns nothing", async () => {
    const observer = new SessionObserver();
    observer.observe(Signal, () => undefined);
    expect(await observer.emit(1)).toEqual([undefined]);
  });

  it("calls sync subscribers in registration order", async () => {
    const observer = new SessionObserver();
    const order: number[] = [];
    for (const n of [1, 2, 3]) observer.observe(Signal, () => void order.push(n));
    await observer.emit(0);
    expect(order).toEqual([1, 2, 3]);
  });

  it("runs async subscribers concurrently and returns their results in registration order", async () => {
    const observer = new SessionObserver();
    const gate = deferred();
    const events: string[] = [];
    observer.observe(Signal, async () => {
      events.push("slow started");
      await gate.promise;
      events.push("slow finished");
      return "slow";
    });
    observer.observe(Signal, async () => {
      events.push("fast started");
      return "fast";
    });
    const pending = observer.emit(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual(["slow started", "fast started"]);
    gate.resolve();
    expect(await pending).toEqual(["slow", "fast"]);
  });

  it("a subscriber added by a subscriber during emit already runs for that emission", async () => {
    const observer = new SessionObserver();
    const order: string[] = [];
    observer.observe(Signal, () => {
      order.push("first");
      if (order.length === 1) observer.observe(Signal, () => void order.push("added"));
    });
    await observer.emit(0);
    expect(order).toEqual(["first", "added"]);
  });
});

describe("SessionObserver.emit errors are not isolated", () => {
  it("a sync subscriber that throws aborts emit at once; later subscribers do not run; the event stays stored", async () => {
    const observer = new SessionObserver();
    const later: string[] = [];
    const error = new Error("sync subscriber broke");
    observer.observe(Signal, () => {
      throw error;
    });
    observer.observe(Signal, () => void later.push("ran"));
    const signal = new Signal({ data: 1 });
    await expect(observer.emit(signal)).rejects.toBe(error);
    expect(later).toEqual([]);
    expect(observer.flow.has(signal.id)).toBe(true);
  });

  it("an async subscriber that rejects rejects emit after the others started", async () => {
    const observer = new SessionObserver();
    const error = new Error("async subscriber broke");
    const ran: string[] = [];
    observer.observe(Signal, async () => {
      throw error;
    });
    observer.observe(Signal, async () => void ran.push("sibling"));
    await expect(observer.emit(1)).rejects.toBe(error);
    expect(ran).toEqual(["sibling"]);
  });

  it("an already started async subscriber that rejects after a sync failure is not left unhandled", async () => {
    const observer = new SessionObserver();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      observer.observe(Signal, async () => {
        throw new Error("late async failure");
      });
      observer.observe(Signal, () => {
        throw new Error("sync failure");
      });
      await expect(observer.emit(1)).rejects.toThrow("sync failure");
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });

  it("a route condition that throws propagates out of emit, after the event was stored", async () => {
    const observer = new SessionObserver();
    const error = new Error("route broke");
    observer.route(() => {
      throw error;
    }, { into: "x" });
    const signal = new Signal({ data: 1 });
    await expect(observer.emit(signal)).rejects.toBe(error);
    expect(observer.flow.has(signal.id)).toBe(true);
  });
});

describe("SessionObserver routes and streams", () => {
  it("appends the envelope of a matching event to the named stream", async () => {
    const observer = new SessionObserver();
    observer.route((p) => typeof p === "number", { into: "numbers" });
    await observer.emit(1);
    await observer.emit("one");
    expect(observer.stream("numbers").map((s) => s.data)).toEqual([1]);
  });

  it("lets one event land in several streams", async () => {
    const observer = new SessionObserver();
    observer.route(() => true, { into: "all" }).route((p) => p === 2, { into: "twos" });
    await observer.emit(2);
    expect(observer.stream("all")).toHaveLength(1);
    expect(observer.stream("twos")).toHaveLength(1);
  });

  it("keeps repeats in a stream when the same signal is emitted twice", async () => {
    const observer = new SessionObserver();
    observer.route(() => true, { into: "all" });
    const signal = new Signal({ data: 1 });
    await observer.emit(signal);
    await observer.emit(signal);
    expect(observer.stream("all")).toEqual([signal, signal]);
  });

  it("returns [] for an unknown stream", () => {
    expect(new SessionObserver().stream("nothing")).toEqual([]);
  });

  it("accepts a Filter as a route condition", async () => {
    const observer = new SessionObserver();
    observer.route(field("kind").eq("plan"), { into: "plans" });
    await observer.emit({ kind: "plan" });
    await observer.emit({ kind: "note" });
    expect(observer.stream("plans")).toHaveLength(1);
  });

  it("routes before calling subscribers", async () => {
    const observer = new SessionObserver();
    observer.route(() => true, { into: "all" });
    let seenInStream = -1;
    observer.observe(Signal, () => void (seenInStream = observer.stream("all").length));
    await observer.emit(1);
    expect(seenInStream).toBe(1);
  });
});

describe("SessionObserver.byType", () => {
  class Plan {}

  it("returns stored envelopes matching by payload type, field type or envelope type, in order", async () => {
    const observer = new SessionObserver();
    const byPayload = new Signal({ data: new Plan() });
    const byField = new Signal({ data: { plan: new Plan() } });
    const unrelated = new Signal({ data: "text" });
    const hook = new HookSignal(HookPoint.SESSION_START, {});
    for (const signal of [byPayload, unrelated, byField, hook]) await observer.emit(signal);
    expect(observer.byType(Plan)).toEqual([byPayload, byField]);
    expect(observer.byType(HookSignal)).toEqual([hook]);
  });

  it("includes events the gate denied (they are stored)", async () => {
    const observer = new SessionObserver();
    observer.gate(() => false);
    await observer.emit(new Plan());
    expect(observer.byType(Plan)).toHaveLength(1);
  });
});

describe("HookBus into SessionObserver", () => {
  it("records a HookSignal whose payload a subscriber can read", async () => {
    const observer = new SessionObserver();
    const points: unknown[] = [];
    observer.observe(HookSignal, (s) => void points.push([s.point, s.payload]));
    await new HookBus(observer).emit(HookPoint.TOOL_POST, { toolName: "t", callId: "c", resultSummary: "ok", duration: 1 });
    expect(points).toEqual([["tool.post", { toolName: "t", callId: "c", resultSummary: "ok", duration: 1 }]]);
  });
});
