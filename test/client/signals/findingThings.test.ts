import { describe, expect, it } from "vitest";
import { ExportReader, exportLines, parseExport } from "../../../client/src/signals/model/ndjsonExport.js";
import { formatFilter, parseFilter } from "../../../client/src/signals/model/signalFilter.js";
import { parseSignalQuery, formatSignalQuery, signalDocumentText, signalDocumentTitle } from "../../../client/src/signals/model/signalDocument.js";
import { SignalTreeModel, type TreeNode } from "../../../client/src/signals/model/treeModel.js";
import { SignalStore } from "../../../client/src/signals/signalStore.js";
import { signalAt, findFrame, addressOf } from "../../../client/src/signals/signalLookup.js";
import type { LivePeer } from "../../../client/src/signals/liveServer.js";
import { agentRun } from "./agentRun.js";
import { hook } from "./frames.js";

const peer: LivePeer = { connectionId: 1, hello: { type: "hello", protocol: 1, token: "ab".repeat(16), pid: 42, title: "agent.ts" } };

function callLabels(model: SignalTreeModel): string[] {
  const [sessionNode] = model.children(model.roots()[0]!);
  const rows = model.children(sessionNode!);
  return rows.flatMap((row) => (row.type === "branch" ? model.children(row) : [row])).map((row) => model.view(row).label);
}

describe("filters", () => {
  it("reads and writes the filter line", () => {
    const filter = parseFilter("refund kind:tool.error tool:refund branch:89E1 is:problem Manager");
    expect([...filter.kinds]).toEqual(["tool.error"]);
    expect([...filter.tools]).toEqual(["refund"]);
    expect([...filter.branches]).toEqual(["89e1"]);
    expect(filter.problemsOnly).toBe(true);
    expect(filter.words).toEqual(["refund", "manager"]);
    expect(formatFilter(filter)).toBe("kind:tool.error tool:refund branch:89e1 is:problem refund manager");
  });

  it("shows only the calls and signals that match, each call whole", async () => {
    const { store } = await agentRun();
    const model = new SignalTreeModel(store);
    model.filter = parseFilter("is:problem");
    expect(callLabels(model)).toEqual([
      "refund — failed: RangeError: refund of 500 for B-99 needs a manager",
      'deleteFile — failed: PermissionError: refusing to delete an absolute path: {"path":"/etc/passwd"}',
    ]);
    model.filter = parseFilter("tool:search");
    expect(callLabels(model)).toEqual([expect.stringMatching(/^search /)]);
    model.filter = parseFilter("kind:tool.error");
    expect(callLabels(model)).toEqual(["refund — failed: RangeError: refund of 500 for B-99 needs a manager"]);
    model.filter = parseFilter("needs a manager");
    expect(callLabels(model)).toHaveLength(1);
    const branchId = store.runs()[0]!.sessions.values().next().value!.model.grouped().rows.find((row) => "branchId" in row && "items" in row) as { branchId: string };
    model.filter = parseFilter(`branch:${branchId.branchId.slice(0, 6)}`);
    expect(callLabels(model)).toHaveLength(7);
    model.filter = parseFilter("nothing-like-this");
    expect(model.children(model.roots()[0]!)).toEqual([]);
    expect(model.matchCounts().shown).toBe(0);
  });
});

describe("read-only signal documents", () => {
  it("are titled after what happened and show ISO times", async () => {
    const { store, session } = await agentRun();
    const error = session.model.entries.find((entry) => entry.facts.kindKey === "tool.error")!;
    expect(signalDocumentTitle(error)).toBe("tool.error · refund.json");
    const text = JSON.parse(signalDocumentText(error)) as Record<string, unknown> & { payload: { createdAt: string } };
    expect(text).toMatchObject({ summary: "tool.error refund: RangeError: refund of 500 for B-99 needs a manager", kind: "HookSignal", point: "tool.error" });
    expect(text["time"]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(text.payload.createdAt).toBe(text["time"]);
    // The URI's query finds the same signal again, and a frame is found by identity.
    const found = findFrame(store, error.frame)!;
    expect(found.entry).toBe(error);
    expect(signalAt(store, parseSignalQuery(formatSignalQuery(addressOf(found)))!)!.entry).toBe(error);
    expect(parseSignalQuery("run=x")).toBeNull();
  });
});

describe("NDJSON export", () => {
  it("round-trips a run: header, then every signal frame in order", async () => {
    const { run, session } = await agentRun();
    const lines = [...exportLines(run, new Date("2026-12-01T00:00:00Z"))];
    expect(JSON.parse(lines[0]!)).toMatchObject({ type: "run", format: "hooklens-signals", version: 1, title: run.title, pid: run.pid, exportedAt: "2026-12-01T00:00:00.000Z" });
    const parsed = parseExport(lines.join("\n") + "\n");
    expect(parsed.skipped).toBe(0);
    expect(parsed.sessions.get(session.sessionId)).toEqual(session.signals);
    const store = new SignalStore();
    const reopened = store.addRecordedRun("/tmp/run.ndjson", "agent", parsed.sessions);
    expect(reopened.sessions.get(session.sessionId)!.model.errorRows).toBe(2);
  });

  it("opens a captured live stream too, counting lines that are not frames and marking drops", () => {
    const reader = new ExportReader();
    for (const line of [JSON.stringify(hook("tool.pre", { toolName: "a", callId: "1", argsSummary: "{}" })), "not json", JSON.stringify({ type: "dropped", count: 3 }), '{"type":"signal"}', ""]) reader.line(line);
    const frames = reader.result.sessions.get("session-1")!;
    expect(frames.map((f) => f.kind)).toEqual(["HookSignal", "SignalsDropped"]);
    expect(frames[1]!.payload["count"]).toBe(3);
    expect(reader.result.skipped).toBe(2);
  });
});

describe("the store", () => {
  it("marks a live drop inline, where the next signal arrived, and counts it on the session", () => {
    const store = new SignalStore();
    store.handleFrame(peer, hook("session.start", { sessionId: "s" }, { at: 0 }));
    store.handleFrame(peer, { type: "dropped", count: 1234 });
    store.handleFrame(peer, hook("session.end", { sessionId: "s" }, { at: 5 }));
    const session = store.runs()[0]!.sessions.get("session-1")!;
    expect(session.model.entries.map((entry) => entry.facts.label)).toEqual(["session started", "1,234 signals dropped here", "session ended"]);
    expect(session.model.droppedSignals).toBe(1234);
    expect(store.runs()[0]!.dropped).toBe(1234);
  });

  it("removes one run and keeps the others; finds the live run of a recorded session", () => {
    const store = new SignalStore();
    store.handleFrame(peer, hook("session.start", { sessionId: "s" }));
    store.addRecordedSession("/a.db", "other", []);
    expect(store.liveRunWithSession("session-1")?.connectionId).toBe(1);
    expect(store.removeRun(1)).toBe(true);
    expect(store.runs().map((run) => run.recordedFrom)).toEqual(["/a.db"]);
    expect(store.liveRunWithSession("session-1")).toBeUndefined();
  });

  it("evicts a hundredth of a full session at once and says so", () => {
    const store = new SignalStore({ maxSignalsPerSession: 1_000 });
    for (let i = 0; i < 1_001; i++) store.handleFrame(peer, hook("tool.pre", { toolName: "t", callId: `c${i}`, argsSummary: "{}" }, { at: i }));
    const session = store.runs()[0]!.sessions.get("session-1")!;
    expect(session.signals).toHaveLength(990);
    expect(session.model.size).toBe(990);
    expect(session.model.items).toHaveLength(990);
    expect(session.evicted).toBe(11);
  });
});

describe("paging", () => {
  it("splits long lists into ranges, nested as needed, and still reveals any signal", () => {
    const store = new SignalStore();
    for (let i = 0; i < 2_500; i++) store.handleFrame(peer, hook("tool.pre", { toolName: "t", callId: `c${i}`, argsSummary: "{}" }, { at: i }));
    const model = new SignalTreeModel(store, { pageSize: 10 });
    const [sessionNode] = model.children(model.roots()[0]!);
    const top = model.children(sessionNode!);
    expect(top.map((node) => model.view(node).label).slice(0, 2)).toEqual(["1–1,000", "1,001–2,000"]);
    expect(top).toHaveLength(3);
    const second = model.children(top[0]!);
    expect(second).toHaveLength(10);
    expect(model.view(second[1]!).label).toBe("101–200");
    const session = store.runs()[0]!.sessions.get("session-1")!;
    const node = model.signalNode(store.runs()[0]!, session, session.model.entries[2_345]!)!;
    const path = model.pathTo(node)!.map((row: TreeNode) => (row.type === "range" ? model.view(row).label : row.type));
    expect(path).toEqual(["run", "session", "2,001–2,500", "2,301–2,400", "2,341–2,350", "call", "signal"]);
  });
});
