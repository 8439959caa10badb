import { afterEach, describe, expect, it, vi } from "vitest";
import {
  Branch,
  configureSignals,
  HookPoint,
  RunEnd,
  Session,
  Signal,
  signalKind,
  Tool,
  ToolCallStarted,
  type EncodedSignal,
  type SignalSink,
} from "@hooklens/runtime";

/**
 * What act() records on a Session when nothing reads it as it is recorded (no subscriber, gate,
 * route or sink): the observer keeps the parts and builds each signal when the flow is read. What
 * is read must be exactly what the observer records when something reads every signal at once.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const TIMES = new Set(["createdAt", "durationMs", "duration", "timestamp"]);

/** Signals as comparable text: ids numbered by first appearance, times left out. */
function normalised(signals: readonly Signal[]): string[] {
  const ids = new Map<string, string>();
  const replacer = (key: string, value: unknown): unknown => {
    if (TIMES.has(key)) return "<time>";
    if (typeof value === "string" && UUID.test(value)) {
      if (!ids.has(value)) ids.set(value, `<id ${ids.size}>`);
      return ids.get(value);
    }
    return value;
  };
  return signals.map((signal) => `${signalKind(signal)} ${JSON.stringify(signal, replacer)}`);
}

/**
 * A Branch whose own `emit` the runtime must call with each recording: every signal it records is
 * built as it is recorded and tagged by `emit`, the way the runtime recorded everything before
 * signals could be kept unbuilt.
 */
class EmittingBranch extends Branch {
  override emit(event: unknown): Promise<unknown[]> {
    return super.emit(event);
  }
}

/**
 * A session with a bus (sync and async handlers, one blocking guard) and three tools; `reference`:
 * on an {@link EmittingBranch}, with a subscriber (that never matches) reading every signal.
 */
function sessionWithTools(reference = false): { session: Session; run: () => Promise<void> } {
  const session = new Session();
  session.hooks.on(HookPoint.TOOL_PRE, (payload) => {
    if ((payload as { toolName?: string }).toolName === "guarded") throw new Error("not this one");
  });
  session.hooks.on(HookPoint.TOOL_POST, async () => {
    await null;
  });
  if (reference) session.observer.observe(RunEnd, () => undefined);
  const branch = reference ? new EmittingBranch() : session.newBranch();
  if (reference) session.includeBranches(branch);
  branch.registerTools([
    new Tool({ name: "lookup", funcCallable: (args: { key: string }) => ({ key: args.key, value: 42 }) }),
    new Tool({
      name: "fails",
      funcCallable: () => {
        throw new TypeError("no such row");
      },
    }),
    new Tool({ name: "guarded", funcCallable: () => "never" }),
  ]);
  const run = async (): Promise<void> => {
    await branch.act([
      { function: "lookup", arguments: { key: "a" } },
      { function: "fails", arguments: {} },
    ]);
    await branch.act({ function: "lookup", arguments: { key: "b", token: "sk-secret-value-1234567890" } }, { strategy: "sequential" });
    await expect(branch.act({ function: "guarded", arguments: {} })).rejects.toThrow("not this one");
    await branch.drainSignals();
  };
  return { session, run };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("act() on a Session with nothing reading its signals as they are recorded", () => {
  it("records the same signals, in the same order, as when each is built as it is recorded", async () => {
    const unread = sessionWithTools();
    await unread.run();
    const read = sessionWithTools(true);
    await read.run();
    const recorded = normalised(unread.session.observer.flow.items);
    expect(recorded.length).toBeGreaterThan(20);
    expect(recorded).toEqual(normalised(read.session.observer.flow.items));
  });

  it("builds each signal once: ids are stable from the first read on, and byType finds the same objects", async () => {
    const { session, run } = sessionWithTools();
    await run();
    const first = session.observer.flow.items;
    const second = session.observer.flow.items;
    expect(second.map((s) => s.id)).toEqual(first.map((s) => s.id));
    second.forEach((signal, i) => expect(signal).toBe(first[i]));
    expect(new Set(first.map((s) => s.id)).size).toBe(first.length);
    const started = session.observer.byType(ToolCallStarted);
    expect(started.map((s) => s.toolName)).toEqual(["lookup", "fails", "lookup", "guarded"]);
    for (const signal of started) expect(first).toContain(signal);
  });

  it("gives each signal the time it was recorded, not the time it was read", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-03-01T10:00:00Z"));
    const { session, run } = sessionWithTools();
    await run();
    vi.setSystemTime(new Date("2026-03-02T10:00:00Z"));
    const times = new Set(session.observer.flow.items.map((s) => s.createdAt));
    expect([...times]).toEqual([Date.parse("2026-03-01T10:00:00Z") / 1000]);
  });

  it("keeps the window's bound, and a sink added later gets every signal recorded from then on, the flow's own objects", async () => {
    const previous = configureSignals({ keepRecentSignals: 10 });
    let session: Session;
    try {
      session = new Session();
    } finally {
      configureSignals(previous);
    }
    const branch = session.newBranch();
    branch.registerTools(new Tool({ name: "lookup", funcCallable: () => 1 }));
    for (let i = 0; i < 20; i++) await branch.act({ function: "lookup", arguments: { i } });
    await branch.drainSignals();
    expect(session.observer.flow.items).toHaveLength(10);
    const written: EncodedSignal[] = [];
    const sink: SignalSink = { needsPayload: false, write: (_id, batch) => void written.push(...batch), flush: async () => undefined };
    session.observer.addSink(sink);
    await branch.act({ function: "lookup", arguments: { i: 20 } });
    await branch.drainSignals();
    await session.observer.flush();
    // ToolCallStarted, the call, ToolCallFinished and two MessageAdded (no bus: no HookSignals).
    expect(written.map((w) => w.kind)).toEqual(["ToolCallStarted", "Signal", "ToolCallFinished", "MessageAdded", "MessageAdded"]);
    const kept = session.observer.flow.items;
    expect(kept.slice(-5)).toEqual(written.map((w) => w.signal));
    kept.slice(-5).forEach((signal, i) => expect(signal).toBe(written[i]!.signal));
  });
});
