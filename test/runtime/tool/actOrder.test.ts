import { describe, expect, it } from "vitest";
import {
  Branch,
  HookBus,
  HookPoint,
  HookSignal,
  MessageAdded,
  Session,
  Signal,
  signalKind,
  Tool,
  ToolCallStarted,
} from "@hooklens/runtime";

/**
 * The exact interleaving of concurrent act() calls' signals with each other and with a program's
 * own microtasks, as recorded by the observer. The rule behind it: a step of the session path
 * that has nothing to wait for (a bus point with no handlers or only sync ones, a recording no
 * gate or async subscriber waits on, a governance check with no gate) costs the call no turn of
 * its own, so a Session adds its signals without moving the call's steps, and whether anything
 * reads the signals as they are recorded moves nothing either. The lists pin the order, so any
 * change to it is a deliberate one.
 */
interface Recorded {
  readonly callId?: string;
  readonly point?: string;
  readonly status?: string;
  readonly payload?: { callId?: string };
  readonly data?: { role?: string; label?: string; content?: { function?: string } };
}

function label(signal: Signal, tools: Map<string, string>): string {
  const s = signal as Signal & Recorded;
  const callId = s.callId ?? s.payload?.callId;
  const name = (callId === undefined ? undefined : tools.get(callId)) ?? s.data?.label ?? s.data?.content?.function ?? "";
  return `${signalKind(signal)}${s.point ? `:${s.point}` : ""}${s.data?.role ? `:${s.data.role}` : ""}${s.status ? `:${s.status}` : ""}${name ? ` ${name}` : ""}`;
}

/**
 * With `subscribed`, a subscriber names each call's tool as it starts (the observer then builds
 * every signal at once); without, nothing reads the signals until the end, so the observer keeps
 * them unbuilt in their places, and the names are read from the recorded ToolCallStarted.
 */
async function recordedOrder(setup: (session: Session) => Branch, subscribed = true): Promise<string[]> {
  const session = new Session();
  const tools = new Map<string, string>();
  const branch = setup(session);
  branch.registerTools([
    new Tool({ name: "sync", funcCallable: (args: { n: number }) => ({ ok: args.n }) }),
    new Tool({
      name: "later",
      funcCallable: async (args: { n: number }) => {
        await null;
        return { ok: args.n };
      },
    }),
    new Tool({
      name: "fails",
      funcCallable: () => {
        throw new Error("no");
      },
    }),
  ]);
  if (subscribed) {
    session.observer.observe(ToolCallStarted, (started: ToolCallStarted) => {
      tools.set(started.callId, started.toolName);
    });
  }
  // The program's own microtasks alongside the calls, each leaving a marker.
  let ticks = 0;
  const markers = async (): Promise<void> => {
    for (let i = 0; i < 12; i++) {
      await null;
      void session.observer.emit(new Signal({ data: { label: `tick${ticks++}` } }));
    }
  };
  await Promise.all([
    markers(),
    branch.act([
      { function: "sync", arguments: { n: 1 } },
      { function: "later", arguments: { n: 2 } },
      { function: "fails", arguments: {} },
    ]),
    branch.act({ function: "sync", arguments: { n: 3 } }),
  ]);
  await branch.drainSignals();
  const items = session.observer.flow.items;
  for (const signal of items) if (signal instanceof ToolCallStarted) tools.set(signal.callId, signal.toolName);
  return items.map((signal) => label(signal, tools));
}

const EXPECTED: Record<string, string[]> = {
  "bus without handlers": [
    "ToolCallStarted sync",
    "ToolCallStarted later",
    "ToolCallStarted fails",
    "ToolCallStarted sync",
    "Signal tick0",
    "HookSignal:tool.pre sync",
    "HookSignal:tool.pre later",
    "HookSignal:tool.pre fails",
    "HookSignal:tool.pre sync",
    "Signal tick1",
    "Signal tick2",
    "HookSignal:tool.error fails",
    "ToolCallFinished:error fails",
    "Signal tick3",
    "HookSignal:tool.post sync",
    "Signal",
    "MessageAdded:action_request fails",
    "HookSignal:tool.post sync",
    "Signal",
    "Signal tick4",
    "ToolCallFinished:ok sync",
    "HookSignal:tool.post later",
    "Signal",
    "ToolCallFinished:ok sync",
    "Signal tick5",
    "MessageAdded:action_request sync",
    "ToolCallFinished:ok later",
    "MessageAdded:action_request sync",
    "Signal tick6",
    "MessageAdded:action_request later",
    "MessageAdded:action_response fails",
    "Signal tick7",
    "Signal tick8",
    "MessageAdded:action_response sync",
    "MessageAdded:action_response sync",
    "Signal tick9",
    "MessageAdded:action_response later",
    "Signal tick10",
    "Signal tick11",
  ],
  "bus with handlers": [
    "ToolCallStarted sync",
    "ToolCallStarted later",
    "ToolCallStarted fails",
    "ToolCallStarted sync",
    "Signal tick0",
    "HookSignal:tool.pre sync",
    "HookSignal:tool.pre later",
    "HookSignal:tool.pre fails",
    "HookSignal:tool.pre sync",
    "Signal tick1",
    "Signal tick2",
    "HookSignal:tool.error fails",
    "ToolCallFinished:error fails",
    "Signal tick3",
    "MessageAdded:action_request fails",
    "Signal tick4",
    "Signal tick5",
    "HookSignal:tool.post sync",
    "HookSignal:tool.post sync",
    "Signal tick6",
    "HookSignal:tool.post later",
    "MessageAdded:action_response fails",
    "Signal tick7",
    "Signal tick8",
    "Signal",
    "Signal",
    "Signal tick9",
    "ToolCallFinished:ok sync",
    "Signal",
    "ToolCallFinished:ok sync",
    "Signal tick10",
    "MessageAdded:action_request sync",
    "ToolCallFinished:ok later",
    "MessageAdded:action_request sync",
    "Signal tick11",
    "MessageAdded:action_request later",
    "MessageAdded:action_response sync",
    "MessageAdded:action_response sync",
    "MessageAdded:action_response later",
  ],
  "no bus": [
    "ToolCallStarted sync",
    "ToolCallStarted later",
    "ToolCallStarted fails",
    "ToolCallStarted sync",
    "Signal tick0",
    "Signal tick1",
    "Signal tick2",
    "ToolCallFinished:error fails",
    "Signal tick3",
    "Signal",
    "MessageAdded:action_request fails",
    "Signal",
    "Signal tick4",
    "ToolCallFinished:ok sync",
    "Signal",
    "ToolCallFinished:ok sync",
    "Signal tick5",
    "MessageAdded:action_request sync",
    "ToolCallFinished:ok later",
    "MessageAdded:action_request sync",
    "Signal tick6",
    "MessageAdded:action_request later",
    "MessageAdded:action_response fails",
    "Signal tick7",
    "Signal tick8",
    "MessageAdded:action_response sync",
    "MessageAdded:action_response sync",
    "Signal tick9",
    "MessageAdded:action_response later",
    "Signal tick10",
    "Signal tick11",
  ],
  "async subscriber": [
    "ToolCallStarted sync",
    "ToolCallStarted later",
    "ToolCallStarted fails",
    "ToolCallStarted sync",
    "Signal tick0",
    "HookSignal:tool.pre sync",
    "HookSignal:tool.pre later",
    "HookSignal:tool.pre fails",
    "HookSignal:tool.pre sync",
    "Signal tick1",
    "Signal tick2",
    "Signal tick3",
    "Signal tick4",
    "Signal tick5",
    "Signal tick6",
    "Signal tick7",
    "HookSignal:tool.error fails",
    "Signal tick8",
    "HookSignal:tool.post sync",
    "HookSignal:tool.post sync",
    "Signal tick9",
    "HookSignal:tool.post later",
    "Signal tick10",
    "Signal tick11",
    "ToolCallFinished:error fails",
    "Signal",
    "MessageAdded:action_request fails",
    "Signal",
    "ToolCallFinished:ok sync",
    "Signal",
    "ToolCallFinished:ok sync",
    "MessageAdded:action_request sync",
    "ToolCallFinished:ok later",
    "MessageAdded:action_request sync",
    "MessageAdded:action_request later",
    "MessageAdded:action_response fails",
    "MessageAdded:action_response sync",
    "MessageAdded:action_response sync",
    "MessageAdded:action_response later",
  ],
};

function busWithoutHandlers(session: Session): Branch {
  void session.hooks;
  return session.newBranch();
}

function busWithHandlers(session: Session): Branch {
  session.hooks.on(HookPoint.TOOL_PRE, () => undefined);
  session.hooks.on(HookPoint.TOOL_POST, async () => {
    await null;
  });
  session.hooks.on(HookPoint.TOOL_ERROR, () => undefined);
  return session.newBranch();
}

function noBus(session: Session): Branch {
  return session.newBranch();
}

describe("act() on a Session: where each signal lands among concurrent work", () => {
  it("with a bus that has no handlers", async () => {
    expect(await recordedOrder(busWithoutHandlers)).toEqual(EXPECTED["bus without handlers"]);
  });

  it("with sync and async bus handlers", async () => {
    expect(await recordedOrder(busWithHandlers)).toEqual(EXPECTED["bus with handlers"]);
  });

  it("without a bus", async () => {
    expect(await recordedOrder(noBus)).toEqual(EXPECTED["no bus"]);
  });

  it("with nothing reading the signals as they are recorded (recorded unbuilt, built when read)", async () => {
    expect(await recordedOrder(busWithoutHandlers, false)).toEqual(EXPECTED["bus without handlers"]);
    expect(await recordedOrder(busWithHandlers, false)).toEqual(EXPECTED["bus with handlers"]);
    expect(await recordedOrder(noBus, false)).toEqual(EXPECTED["no bus"]);
  });

  it("a bus with no handlers adds its HookSignals and moves nothing: without them, the order is the one without a bus", async () => {
    for (const read of [true, false]) {
      const withBus = (await recordedOrder(busWithoutHandlers, read)).filter((label) => !label.startsWith("HookSignal"));
      expect(withBus).toEqual(await recordedOrder(noBus, read));
    }
  });

  it("with async subscribers, which the recordings wait for", async () => {
    const order = await recordedOrder((session) => {
      void session.hooks;
      session.observer.observe(HookSignal, async () => {
        await null;
        await null;
      });
      session.observer.observe(MessageAdded, async () => {
        await null;
      });
      return session.newBranch();
    });
    expect(order).toEqual(EXPECTED["async subscriber"]);
  });
});

describe("HookBus recording: when the emission settles", () => {
  /** Where `await bus.emit(…)` resumes among a program's own microtasks. */
  async function emitTurns(bus: HookBus): Promise<string[]> {
    const log: string[] = [];
    const markers = async (): Promise<void> => {
      for (let i = 0; i < 4; i++) {
        await null;
        log.push(`t${i}`);
      }
    };
    const emits = async (): Promise<void> => {
      await bus.emit(HookPoint.TOOL_PRE, { toolName: "x", callId: "c", argsSummary: "" });
      log.push("pre");
      await bus.emit(HookPoint.TOOL_POST, { toolName: "x", callId: "c", resultSummary: "", duration: 0 });
      log.push("post");
    };
    await Promise.all([markers(), emits()]);
    return log;
  }

  it("a recorded emission with nothing to wait for settles at once, like one nothing records", async () => {
    const session = new Session();
    const recorded = await emitTurns(session.hooks);
    expect(recorded).toEqual(["t0", "pre", "t1", "post", "t2", "t3"]);
    expect(recorded).toEqual(await emitTurns(new HookBus()));
    expect(session.observer.byType(HookSignal).map((signal) => signal.point)).toEqual(["tool.pre", "tool.post"]);
  });

  it("a recording an async subscriber waits on settles when the subscriber does", async () => {
    const session = new Session();
    session.observer.observe(HookSignal, async () => {
      await null;
    });
    expect(await emitTurns(session.hooks)).not.toEqual(await emitTurns(new HookBus()));
  });
});
