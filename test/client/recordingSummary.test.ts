import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HookBus, HookPoint, SessionObserver } from "@hooklens/runtime";
import { SqliteSignalStore } from "@hooklens/runtime/store";
import type { SignalFrame } from "@hooklens/runtime/live";
import { listRecordedSessions, summarizeRecordedSessions } from "../../client/src/signals/recordingReader.js";
import { recordingRowText, type RecordingSummary } from "../../client/src/signals/model/recordingSummary.js";
import { SignalStore } from "../../client/src/signals/signalStore.js";
import type { LivePeer } from "../../client/src/signals/liveServer.js";
import { programName } from "../../runtime/src/shared/program.js";
import { createTempDir } from "../helpers/tempDir.js";

let temp: ReturnType<typeof createTempDir>;
beforeEach(() => {
  temp = createTempDir("hooklens-recordings-");
});
afterEach(() => temp.dispose());

/** Records one session through the runtime's own path (observer → bus → SQLite) and returns its id. */
async function recordRun(file: string, run: (bus: HookBus, sessionId: string) => Promise<void>): Promise<string> {
  const store = await SqliteSignalStore.open(file);
  const observer = new SessionObserver();
  observer.bindDbPersistence(observer.sessionId, store);
  await run(new HookBus(observer), observer.sessionId);
  await observer.flush();
  await store.flush();
  store.close();
  return observer.sessionId;
}

async function summaries(file: string): Promise<RecordingSummary[]> {
  const found: RecordingSummary[] = [];
  await summarizeRecordedSessions(file, await listRecordedSessions(file), (summary) => found.push(summary));
  return found;
}

describe("the recordings picker's summary of each recorded session", () => {
  it("says which program ran it, how it ended, how long it took, its tool calls and errors", async () => {
    const file = temp.path("signals.db");
    const ok = await recordRun(file, async (bus, sessionId) => {
      await bus.emit(HookPoint.SESSION_START, { sessionId, model: "scripted" });
      await bus.emit(HookPoint.TOOL_PRE, { toolName: "search", callId: "c1", argsSummary: "{}" });
      await bus.emit(HookPoint.TOOL_POST, { toolName: "search", callId: "c1", resultSummary: "[]", duration: 0.012 });
      await bus.emit(HookPoint.TOOL_PRE, { toolName: "refund", callId: "c2", argsSummary: "{}" });
      await bus.emit(HookPoint.TOOL_ERROR, { toolName: "refund", callId: "c2", error: { name: "RangeError", message: "too much" }, duration: 0.001 });
      await bus.emit(HookPoint.SESSION_END, { sessionId, status: "completed", durationMs: 1234 });
    });
    const crashed = await recordRun(file, async (bus, sessionId) => {
      await bus.emit(HookPoint.SESSION_START, { sessionId, agentName: "helper" });
      await bus.emit(HookPoint.TOOL_PRE, { toolName: "search", callId: "c1", argsSummary: "{}" });
    });
    const [first, second] = await summaries(file);
    expect(first).toMatchObject({ sessionId: ok, program: programName(), status: "completed", failed: false, durationMs: 1234, toolCalls: 2, errors: 1, denials: 0, signals: 6 });
    expect(second).toMatchObject({ sessionId: crashed, program: programName(), status: "no end recorded", toolCalls: 1, errors: 0, signals: 2 });
    expect(programName()).not.toBe("");

    const row = recordingRowText(first!);
    expect(row.label).toBe(programName());
    expect(row.description).toBe(`session ${ok.slice(0, 8)} · completed`);
    expect(row.detail).toMatch(/ · 1,234 ms · 2 tool calls · 1 error · 6 signals$/);
  });

  it("names a failed session's error, and reads a session again once it has grown", async () => {
    const file = temp.path("signals.db");
    const sessionId = await recordRun(file, async (bus, id) => {
      await bus.emit(HookPoint.SESSION_START, { sessionId: id });
      await bus.emit(HookPoint.SESSION_END, { sessionId: id, status: "failed", error: { name: "Error", message: "model unreachable" } });
    });
    expect((await summaries(file))[0]).toMatchObject({ status: "failed: Error: model unreachable", failed: true, toolCalls: 0 });
    // The same session id written to again (a program that resumed it): the summary follows.
    const store = await SqliteSignalStore.open(file);
    store.insertSessionSignal({ sessionId, kind: "HookSignal", opId: "", ts: Date.now() / 1000, payload: { point: "tool.pre", payload: { toolName: "late", callId: "x" } } });
    await store.flush();
    store.close();
    expect((await summaries(file))[0]).toMatchObject({ toolCalls: 1, signals: 3 });
  });

  it("stops reading once the picker is gone", async () => {
    const file = temp.path("signals.db");
    for (let i = 0; i < 3; i++) await recordRun(file, async (bus, id) => void (await bus.emit(HookPoint.SESSION_START, { sessionId: id })));
    const seen: string[] = [];
    await summarizeRecordedSessions(file, await listRecordedSessions(file), (summary) => seen.push(summary.sessionId), () => seen.length >= 1);
    expect(seen).toHaveLength(1);
  });
});

function frame(sessionId: string, n: number): SignalFrame {
  return { type: "signal", sessionId, branchId: null, id: `#${n}`, kind: "HookSignal", createdAt: 1_700_000_000 + n, payload: { point: "tool.pre", payload: { toolName: "t", callId: `c${n}` } } };
}

function peer(connectionId: number): LivePeer {
  return { connectionId, hello: { type: "hello", protocol: 1, token: "ab".repeat(16), pid: 4242, title: "agent.mjs" } };
}

describe("a recording of a session the view shows as a program run", () => {
  it("is not added again: opening it gives the program run", () => {
    const store = new SignalStore();
    store.handleFrame(peer(1), frame("s1", 1));
    const live = store.run(1)!;
    expect(store.addRecordedSession("/w/signals.db", "s1", [frame("s1", 1), frame("s1", 2)])).toBe(live);
    expect(store.runs()).toEqual([live]);
    expect(recordingRowText({ sessionId: "s1", program: "agent.mjs", status: "completed", failed: false, startedAt: null, durationMs: null, toolCalls: 1, errors: 0, denials: 0, signals: 1 }, "connected").description).toBe("session s1 · completed · live now");
  });

  it("is a database recording only: an NDJSON export the user opens is a run of its own, and stays", () => {
    const store = new SignalStore();
    store.handleFrame(peer(1), frame("s1", 1));
    const exported = store.addRecordedRun("/w/run.ndjson", "run.ndjson", new Map([["s1", [frame("s1", 1)]]]));
    store.handleFrame(peer(1), frame("s1", 2));
    expect(store.runs()).toEqual([store.run(1), exported]);
  });

  it("leaves the view when the program run starts streaming the same session", () => {
    const store = new SignalStore();
    const recorded = store.addRecordedSession("/w/signals.db", "s1", [frame("s1", 1)]);
    const other = store.addRecordedSession("/w/signals.db", "s9", [frame("s9", 1)]);
    expect(store.runs()).toEqual([recorded, other]);
    store.handleFrame(peer(1), frame("s1", 2));
    expect(store.runs().map((run) => run.recordedFrom)).toEqual(["/w/signals.db", null]);
    expect(store.runs()[0]).toBe(other);
  });
});
