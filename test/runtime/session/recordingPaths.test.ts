import { describe, expect, it } from "vitest";
import {
  act,
  Branch,
  HookBus,
  HookPoint,
  HookSignal,
  MessageAdded,
  Session,
  SessionObserver,
  Signal,
  signalKind,
  Tool,
} from "@hooklens/runtime";

/**
 * The runtime records its own signals (a call's record, the HookBus recordings, the background
 * MessageAdded emissions) without building the result list `emit` returns. A subclass that
 * overrides `emit` must still see every one of them through its `emit`, in the same order.
 */
describe("the runtime's own recordings go through an overridden emit", () => {
  it("a Branch subclass's emit sees the call's record, the call and the message signals", async () => {
    const seen: string[] = [];
    class WatchedBranch extends Branch {
      override emit(event: unknown): Promise<unknown[]> {
        seen.push(event instanceof Signal ? signalKind(event) : "value");
        return super.emit(event);
      }
    }
    const session = new Session();
    void session.hooks;
    const branch = new WatchedBranch();
    session.includeBranches(branch);
    branch.registerTools(new Tool({ name: "echo", funcCallable: (args: { x: number }) => ({ x: args.x }) }));
    await act(branch, { function: "echo", arguments: { x: 1 } });
    await branch.drainSignals();
    // The call goes to emit as it is (emit wraps it in a Signal).
    expect(seen).toEqual(["ToolCallStarted", "value", "ToolCallFinished", "MessageAdded", "MessageAdded"]);
    // Stored once each, tagged with the branch, HookSignals (recorded by the bus) among them.
    const kinds = session.observer.flow.items.map((signal) => signalKind(signal));
    expect(kinds).toEqual(["ToolCallStarted", "HookSignal", "HookSignal", "Signal", "ToolCallFinished", "MessageAdded", "MessageAdded"]);
    expect(session.observer.byType(MessageAdded).every((signal) => signal.metadata["branchId"] === branch.id)).toBe(true);
  });

  it("a Branch subclass's emitAndLog is called for the call it records", async () => {
    const logged: unknown[] = [];
    class LoggingBranch extends Branch {
      override emitAndLog(event: unknown): Promise<unknown[]> {
        logged.push(event);
        return super.emitAndLog(event);
      }
    }
    const session = new Session();
    const branch = new LoggingBranch();
    session.includeBranches(branch);
    branch.registerTools(new Tool({ name: "echo", funcCallable: () => "ok" }));
    await act(branch, { function: "echo", arguments: {} });
    expect(logged).toHaveLength(1);
    expect(branch.logs).toEqual(logged);
  });

  it("a SessionObserver subclass's emit records what a HookBus bound to it records", async () => {
    const seen: unknown[] = [];
    class WatchedObserver extends SessionObserver {
      override emit(event: unknown): Promise<unknown[]> {
        seen.push(event);
        return super.emit(event);
      }
    }
    const observer = new WatchedObserver();
    const bus = new HookBus(observer);
    await bus.emit(HookPoint.TOOL_PRE, { toolName: "t", callId: "c", argsSummary: "{}" });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeInstanceOf(HookSignal);
    expect(observer.byType(HookSignal)).toEqual(seen);
  });

  it("an emit that fails to record is logged; act() and the other records carry on", async () => {
    const session = new Session();
    void session.hooks;
    const branch = session.newBranch();
    branch.registerTools(new Tool({ name: "echo", funcCallable: () => "ok" }));
    // A route condition that throws fails the recording of every signal it sees.
    session.observer.route((payload) => {
      if (payload instanceof Object && "role" in payload) throw new Error("route broke");
      return false;
    }, { into: "never" });
    const result = await act(branch, { function: "echo", arguments: {} });
    await branch.drainSignals();
    expect(result.output).toBe("ok");
    // The MessageAdded signals were stored before their route failed; nothing else was lost.
    expect(session.observer.flow.items.map((signal) => signalKind(signal))).toEqual([
      "ToolCallStarted",
      "HookSignal",
      "HookSignal",
      "Signal",
      "ToolCallFinished",
      "MessageAdded",
      "MessageAdded",
    ]);
  });
});
