import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HookBus, HookPoint, HookSignal, SessionObserver, StopHook, setLogger, type HookHandler } from "@hooklens/runtime";
import { captureLogs, type CapturedLog } from "../../helpers/captureLogs.js";

// HookBus compiles one dispatcher per handler list: unrolled direct calls for short lists, a loop
// for long ones (over 32), and a `then`-chained continuation once a handler returns a promise.
// These run the chain contract across list sizes on both sides of that limit.
let logs: CapturedLog[];
let restore: () => void;
beforeEach(() => ({ logs, restore } = captureLogs()));
afterEach(() => restore());

const SIZES = [1, 2, 5, 20, 32, 33, 40];
const toolPost = { toolName: "t", callId: "c", resultSummary: "", duration: 0 };
const toolPre = { toolName: "t", callId: "c", argsSummary: "" };
const tick = () => new Promise((resolve) => setImmediate(resolve));

function busWith(count: number, make: (index: number) => HookHandler, point: HookPoint = HookPoint.TOOL_POST): HookBus {
  const bus = new HookBus();
  for (let i = 0; i < count; i++) bus.on(point, make(i));
  return bus;
}

function errorLogs(): string[] {
  return logs.filter((l) => l.level === "error").map((l) => l.msg);
}

const range = (count: number) => Array.from({ length: count }, (_, i) => i);

describe.each(SIZES)("HookBus chain with %i handlers", (size) => {
  it("runs sync handlers once each in registration order and resolves to undefined", async () => {
    const calls: number[] = [];
    const bus = busWith(size, (i) => () => void calls.push(i));
    await expect(bus.emit(HookPoint.TOOL_POST, toolPost)).resolves.toBeUndefined();
    expect(calls).toEqual(range(size));
  });

  it("awaits async handlers one after another, interleaved with sync ones", async () => {
    const events: string[] = [];
    const bus = busWith(size, (i) =>
      i % 3 === 1
        ? () => void events.push(`sync ${i}`)
        : async () => {
            events.push(`start ${i}`);
            await tick();
            events.push(`end ${i}`);
          },
    );
    await bus.emit(HookPoint.TOOL_POST, toolPost);
    expect(events).toEqual(range(size).flatMap((i) => (i % 3 === 1 ? [`sync ${i}`] : [`start ${i}`, `end ${i}`])));
  });

  it("passes the same payload object to every handler, with no receiver", async () => {
    const seen = new Set<unknown>();
    const receivers = new Set<unknown>();
    const bus = busWith(size, (i) =>
      i % 2 === 0
        ? function (this: unknown, payload) {
            seen.add(payload);
            receivers.add(this);
          }
        : async function (this: unknown, payload) {
            seen.add(payload);
            receivers.add(this);
          },
    );
    const payload = { ...toolPost };
    await bus.emit(HookPoint.TOOL_POST, payload);
    expect([...seen]).toEqual([payload]);
    expect([...receivers]).toEqual([undefined]);
  });

  it.each(["sync", "async"])(
    "snapshots the list: handlers added or removed by a %s first handler count from the next emission",
    async (kind) => {
      const calls: string[] = [];
      const bus = new HookBus();
      const late = () => void calls.push("late");
      const others = range(size)
        .slice(1)
        .map((i) => () => void calls.push(String(i)));
      const rewire = () => {
        calls.push("0");
        bus.on(HookPoint.TOOL_POST, late);
        for (const other of others) bus.off(HookPoint.TOOL_POST, other);
      };
      bus.on(HookPoint.TOOL_POST, kind === "sync" ? rewire : async () => rewire());
      for (const other of others) bus.on(HookPoint.TOOL_POST, other);
      await bus.emit(HookPoint.TOOL_POST, toolPost);
      expect(calls).toEqual(range(size).map(String));
      calls.length = 0;
      await bus.emit(HookPoint.TOOL_POST, toolPost);
      expect(calls).toEqual(["0", "late"]);
    },
  );

  it("StopHook from the last handler, sync or async, ends the chain quietly", async () => {
    for (const stop of [
      () => {
        throw new StopHook();
      },
      async () => {
        throw new StopHook();
      },
    ]) {
      const calls: number[] = [];
      const bus = busWith(size, (i) => (i === size - 1 ? stop : async () => void calls.push(i)));
      await expect(bus.emit(HookPoint.TOOL_POST, toolPost)).resolves.toBeUndefined();
      expect(calls).toEqual(range(size - 1));
    }
    expect(logs).toEqual([]);
  });

  it("a failure at a non-blocking point after an async handler is logged and the next handler runs", async () => {
    const calls: number[] = [];
    const bus = busWith(size, (i) =>
      i === size - 1
        ? async () => {
            throw new RangeError(`async ${i}`);
          }
        : i % 2 === 1
          ? () => {
              throw new TypeError(`sync ${i}`);
            }
          : async () => void calls.push(i),
    );
    await expect(bus.emit(HookPoint.TOOL_POST, toolPost)).resolves.toBeUndefined();
    expect(calls).toEqual(range(size - 1).filter((i) => i % 2 === 0));
    const expected = range(size)
      .filter((i) => i === size - 1 || i % 2 === 1)
      .map((i) => (i === size - 1 ? `Hook failed at tool.post: RangeError: async ${i}` : `Hook failed at tool.post: TypeError: sync ${i}`));
    expect(errorLogs()).toEqual(expected);
  });

  it("TOOL_PRE rejects with the first error raised after an await; nothing later runs and nothing is recorded", async () => {
    const observer = new SessionObserver();
    const guardError = new Error("denied");
    const calls: number[] = [];
    const bus = busWith(
      size + 1,
      (i) =>
        i === size
          ? () => {
              throw guardError;
            }
          : async () => void calls.push(i),
      HookPoint.TOOL_PRE,
    );
    bus.on(HookPoint.TOOL_PRE, () => void calls.push(-1));
    bus.bind(observer);
    await expect(bus.emit(HookPoint.TOOL_PRE, toolPre)).rejects.toBe(guardError);
    expect(calls).toEqual(range(size));
    expect(observer.byType(HookSignal)).toEqual([]);
    expect(logs).toEqual([]);
  });

  it("blockingEmit rejects with an async failure at any point and skips the rest", async () => {
    const calls: number[] = [];
    const failure = new Error("async failure");
    const bus = busWith(size + 1, (i) =>
      i === 0
        ? async () => {
            await tick();
            throw failure;
          }
        : () => void calls.push(i),
    );
    await expect(bus.blockingEmit(HookPoint.TOOL_POST, toolPost)).rejects.toBe(failure);
    expect(calls).toEqual([]);
  });

  it("records one HookSignal after the last handler settled, with the observer bound at that moment", async () => {
    const first = new SessionObserver();
    const second = new SessionObserver();
    const bus = new HookBus(first);
    const recordedDuringChain: number[] = [];
    for (let i = 0; i < size; i++) {
      bus.on(HookPoint.TOOL_POST, async () => {
        await tick();
        recordedDuringChain.push(first.byType(HookSignal).length + second.byType(HookSignal).length);
        if (i === 0) bus.bind(second);
      });
    }
    await bus.emit(HookPoint.TOOL_POST, toolPost);
    expect(recordedDuringChain).toEqual(range(size).map(() => 0));
    expect(first.byType(HookSignal)).toHaveLength(0);
    expect(second.byType(HookSignal).map((s) => s.point)).toEqual(["tool.post"]);
  });
});

describe("HookBus chain: thenables and misbehaving handlers", () => {
  it("adopts a thenable like await does: never synchronously, and only its first settlement counts", async () => {
    const calls: string[] = [];
    const bus = new HookBus();
    bus.on(HookPoint.SESSION_END, () => void calls.push("first"));
    bus.on(HookPoint.SESSION_END, async () => void calls.push("async"));
    bus.on(HookPoint.SESSION_END, () => ({
      then(resolve: () => void, reject: (error: unknown) => void) {
        calls.push("then called");
        resolve();
        resolve();
        reject(new Error("ignored"));
      },
    }));
    bus.on(HookPoint.SESSION_END, () => void calls.push("after thenable"));
    const emission = bus.emit(HookPoint.SESSION_END, { sessionId: "s" });
    expect(calls).toEqual(["first", "async"]);
    await emission;
    expect(calls).toEqual(["first", "async", "then called", "after thenable"]);
    expect(logs).toEqual([]);
  });

  it("a handler whose result has a throwing then getter fails like a rejected handler: logged, or a rejection at TOOL_PRE", async () => {
    const broken = () =>
      Object.defineProperty({}, "then", {
        get() {
          throw new Error("then getter");
        },
      }) as unknown;
    for (const firstIsAsync of [false, true]) {
      const calls: string[] = [];
      const bus = new HookBus();
      bus.on(HookPoint.TOOL_POST, firstIsAsync ? async () => void calls.push("async") : () => void calls.push("sync"));
      bus.on(HookPoint.TOOL_POST, broken);
      bus.on(HookPoint.TOOL_POST, () => void calls.push("next"));
      await expect(bus.emit(HookPoint.TOOL_POST, toolPost)).resolves.toBeUndefined();
      expect(calls).toEqual([firstIsAsync ? "async" : "sync", "next"]);
      const guard = new HookBus();
      if (firstIsAsync) guard.on(HookPoint.TOOL_PRE, async () => undefined);
      guard.on(HookPoint.TOOL_PRE, broken);
      const emission = guard.emit(HookPoint.TOOL_PRE, toolPre);
      expect(emission).toBeInstanceOf(Promise);
      await expect(emission).rejects.toThrow("then getter");
    }
    expect(errorLogs()).toEqual(["Hook failed at tool.post: Error: then getter", "Hook failed at tool.post: Error: then getter"]);
  });

  it("a logger that throws while reporting a handler failure rejects the emission instead of throwing", async () => {
    const loggerError = new Error("logger down");
    const throwing = () => {
      throw loggerError;
    };
    const previous = setLogger({ debug: throwing, info: throwing, warn: throwing, error: throwing });
    try {
      for (const failFirst of [true, false]) {
        const bus = new HookBus();
        if (!failFirst) bus.on(HookPoint.TOOL_POST, async () => undefined);
        bus.on(HookPoint.TOOL_POST, () => {
          throw new Error("handler");
        });
        bus.on(HookPoint.TOOL_POST, () => undefined);
        let emission: Promise<void> | undefined;
        expect(() => (emission = bus.emit(HookPoint.TOOL_POST, toolPost))).not.toThrow();
        await expect(emission).rejects.toBe(loggerError);
      }
    } finally {
      setLogger(previous);
    }
  });

  it("a bus with more handlers than the unrolled form takes still keeps duplicates and off's first-match removal", async () => {
    const calls: number[] = [];
    const bus = new HookBus();
    const handlers = range(40).map((i) => () => void calls.push(i));
    for (const h of handlers) bus.on(HookPoint.TOOL_POST, h);
    bus.on(HookPoint.TOOL_POST, handlers[0]!);
    bus.off(HookPoint.TOOL_POST, handlers[0]!);
    await bus.emit(HookPoint.TOOL_POST, toolPost);
    expect(calls).toEqual([...range(40).slice(1), 0]);
  });
});
