import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HookBus, HookPoint, HookSignal, SessionObserver, StopHook } from "@hooklens/runtime";
import { captureLogs, type CapturedLog } from "../../helpers/captureLogs.js";

// HookBus.emit settles a chain whose only promise comes from its last handler through a single
// `then`; these pin that path to the same contract as the general async path.
let logs: CapturedLog[];
let restore: () => void;
beforeEach(() => ({ logs, restore } = captureLogs()));
afterEach(() => restore());

const toolPost = { toolName: "t", callId: "c", resultSummary: "", duration: 0 };
const toolPre = { toolName: "t", callId: "c", argsSummary: "" };

describe("HookBus.emit when the last handler is the first to return a promise", () => {
  it("waits for that promise before resolving", async () => {
    const bus = new HookBus();
    const order: string[] = [];
    bus.on(HookPoint.TOOL_POST, () => void order.push("sync"));
    bus.on(HookPoint.TOOL_POST, async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      order.push("async done");
    });
    await bus.emit(HookPoint.TOOL_POST, toolPost);
    expect(order).toEqual(["sync", "async done"]);
  });

  it("resolves to undefined, not the handler's value", async () => {
    const bus = new HookBus();
    bus.on(HookPoint.TOOL_POST, async () => "handler value");
    await expect(bus.emit(HookPoint.TOOL_POST, toolPost)).resolves.toBeUndefined();
  });

  it("logs and swallows its rejection at a non-blocking point", async () => {
    const bus = new HookBus();
    bus.on(HookPoint.TOOL_POST, async () => {
      throw new Error("last one broke");
    });
    await expect(bus.emit(HookPoint.TOOL_POST, toolPost)).resolves.toBeUndefined();
    expect(logs.filter((l) => l.level === "error").map((l) => l.msg)).toEqual(["Hook failed at tool.post: Error: last one broke"]);
  });

  it("ends quietly on its StopHook", async () => {
    const bus = new HookBus();
    bus.on(HookPoint.TOOL_POST, async () => {
      throw new StopHook();
    });
    await expect(bus.emit(HookPoint.TOOL_POST, toolPost)).resolves.toBeUndefined();
    expect(logs).toEqual([]);
  });

  it("rejects with its error at TOOL_PRE, and resolves on its StopHook there", async () => {
    const bus = new HookBus();
    const guardError = new Error("blocked");
    bus.on(HookPoint.TOOL_PRE, async () => {
      throw guardError;
    });
    await expect(bus.emit(HookPoint.TOOL_PRE, toolPre)).rejects.toBe(guardError);
    const stopping = new HookBus();
    stopping.on(HookPoint.TOOL_PRE, async () => {
      throw new StopHook();
    });
    await expect(stopping.emit(HookPoint.TOOL_PRE, toolPre)).resolves.toBeUndefined();
  });

  it("records the HookSignal only after it settled when an observer is bound", async () => {
    const observer = new SessionObserver();
    const bus = new HookBus(observer);
    let recordedBeforeSettling = -1;
    bus.on(HookPoint.TOOL_POST, async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      recordedBeforeSettling = observer.byType(HookSignal).length;
    });
    await bus.emit(HookPoint.TOOL_POST, toolPost);
    expect(recordedBeforeSettling).toBe(0);
    expect(observer.byType(HookSignal)).toHaveLength(1);
  });

  it("awaits a foreign thenable returned last as well", async () => {
    const bus = new HookBus();
    const order: string[] = [];
    bus.on(HookPoint.TOOL_POST, () => ({
      then(resolve: (value: unknown) => void) {
        setTimeout(() => {
          order.push("thenable settled");
          resolve(undefined);
        }, 5);
      },
    }));
    await bus.emit(HookPoint.TOOL_POST, toolPost);
    expect(order).toEqual(["thenable settled"]);
  });
});
