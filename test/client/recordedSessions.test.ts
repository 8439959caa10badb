import { describe, expect, it } from "vitest";
import type { SignalFrame } from "@hooklens/runtime/live";
import { MAX_SIGNALS_PER_SESSION, SignalStore } from "../../client/src/signals/signalStore.js";

function frame(n: number, sessionId = "session-1"): SignalFrame {
  return { type: "signal", sessionId, branchId: null, id: `#${n}`, kind: "HookSignal", createdAt: 1_700_000_000 + n, payload: { point: "tool.post", n } };
}

describe("SignalStore.addRecordedSession", () => {
  it("shows a recording as an ended run titled after its file, its signals in order", () => {
    const store = new SignalStore();
    let changes = 0;
    store.onDidChange(() => changes++);
    const run = store.addRecordedSession("/w/.hooklens/signals.db", "0123456789abcdef", [frame(1), frame(2)]);
    expect(changes).toBe(1);
    expect(run).toMatchObject({ title: "signals.db · 01234567", connected: false, recordedFrom: "/w/.hooklens/signals.db" });
    expect(run.connectionId).toBeLessThan(0);
    expect(store.runs()).toEqual([run]);
    expect(run.sessions.get("0123456789abcdef")!.signals.map((s) => s.id)).toEqual(["#1", "#2"]);
  });

  it("replaces the same session of the same file when opened again, and keeps others", () => {
    const store = new SignalStore();
    store.addRecordedSession("/a.db", "s1", [frame(1)]);
    const other = store.addRecordedSession("/a.db", "s2", [frame(1, "s2")]);
    const elsewhere = store.addRecordedSession("/b.db", "s1", [frame(1)]);
    const again = store.addRecordedSession("/a.db", "s1", [frame(1), frame(2), frame(3)]);
    expect(store.runs()).toEqual([other, elsewhere, again]);
    expect(store.signalCount()).toBe(5);
  });

  it("keeps the newest signals of a long recording and counts the rest as evicted", () => {
    const store = new SignalStore();
    const frames = Array.from({ length: MAX_SIGNALS_PER_SESSION + 7 }, (_, i) => frame(i + 1));
    const session = store.addRecordedSession("/a.db", "session-1", frames).sessions.get("session-1")!;
    expect(session.signals).toHaveLength(MAX_SIGNALS_PER_SESSION);
    expect(session.evicted).toBe(7);
    expect(session.signals[0]!.id).toBe("#8");
  });

  it("is cleared with everything else", () => {
    const store = new SignalStore();
    store.addRecordedSession("/a.db", "s1", [frame(1)]);
    store.clear();
    expect(store.runs()).toEqual([]);
  });
});
