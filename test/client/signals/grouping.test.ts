import { describe, expect, it } from "vitest";
import { CallGroup } from "../../../client/src/signals/model/callGroup.js";
import { SignalTreeModel, type TreeNode } from "../../../client/src/signals/model/treeModel.js";
import { agentRun } from "./agentRun.js";

function labels(model: SignalTreeModel, nodes: TreeNode[]): string[] {
  return nodes.map((node) => model.view(node).label);
}

describe("the example agent's run, grouped", () => {
  it("groups each tool call's signals by call id, with the act() record and action messages", async () => {
    const { session } = await agentRun();
    const calls = session.model.items.filter((item): item is CallGroup => item instanceof CallGroup);
    // The planning model call, then search, refund ok, refund failed, deleteFile blocked, deleteFile
    // ok (each the Executor's call with act()'s inside), then the streamed model call: model calls
    // are recorded into the active session by default.
    expect(calls.map((call) => call.name)).toEqual(["model scripted-model", "search", "refund", "refund", "deleteFile", "deleteFile", "model scripted-model"]);
    expect(calls[1]!.members.map((entry) => entry.facts.kindKey)).toEqual(["ToolCallStarted", "ToolCallFinished"]);
    const [search] = calls[1]!.children;
    // The call's start and finish records, its hook signals, act()'s record and the action messages.
    expect(search!.members.map((entry) => entry.facts.kindKey)).toEqual(["ToolCallStarted", "tool.pre", "tool.post", "Signal", "ToolCallFinished", "MessageAdded", "MessageAdded"]);
    // Nothing of a call is left loose: the only loose rows are the session's start and end.
    const loose = session.model.items.filter((item) => !(item instanceof CallGroup));
    expect(loose.map((entry) => (entry instanceof CallGroup ? "" : entry.facts.kindKey))).toEqual(["session.start", "session.end"]);
  });

  it("says what happened in each call's label, and counts the error and the denial on every parent", async () => {
    const { store, run, session } = await agentRun();
    const model = new SignalTreeModel(store);
    const [runNode] = model.roots();
    expect(model.view(runNode!).description).toMatch(/^ended · pid \d+ · 47 signals · 2 errors · 1 denied$/);
    const [sessionNode] = model.children(runNode!);
    expect(model.view(sessionNode!).description).toBe("47 signals · 2 errors · 1 denied");
    const rows = model.children(sessionNode!);
    // session.start, then the branch (its calls carry its id through their act() records), then session.end.
    expect(rows.map((row) => row.type)).toEqual(["signal", "branch", "signal"]);
    expect(labels(model, rows)).toEqual(["session started · scripted-model", expect.stringMatching(/^branch [0-9a-f]{8}$/), "session ended · completed"]);
    expect(model.view(rows[1]!).description).toBe("45 signals · 2 errors · 1 denied");
    const calls = labels(model, model.children(rows[1]!));
    expect(calls[0]).toMatch(/^model scripted-model 1,000 tokens$/);
    expect(calls[1]).toMatch(/^search \d+(\.\d+)? ms$/);
    expect(calls[3]).toBe("refund — failed: RangeError: refund of 500 for B-99 needs a manager");
    // The Executor's call ends with the guard's error; act()'s call inside it says it was blocked.
    expect(calls[4]).toBe('deleteFile — failed: PermissionError: refusing to delete an absolute path: {"path":"/etc/passwd"}');
    expect(labels(model, model.children(model.children(rows[1]!)[4]!))[1]).toBe('deleteFile — blocked by a tool.pre hook: refusing to delete an absolute path: {"path":"/etc/passwd"}');
    expect(run.dropped).toBe(0);
    expect(session.model.errorRows).toBe(2);
  });

  it("describes rows by their offset in the session and their duration in ms, with a Markdown tooltip", async () => {
    const { store } = await agentRun();
    const model = new SignalTreeModel(store);
    const [sessionNode] = model.children(model.roots()[0]!);
    const [, branch] = model.children(sessionNode!);
    const [, search] = model.children(branch!);
    expect(model.view(search!).description).toMatch(/^\+\d[\d,]* ms · \d+(\.\d+)? ms$/);
    // The Executor's call holds act()'s.
    const [, actCall] = model.children(search!);
    const [started, pre, post] = model.children(actCall!);
    expect(model.view(started!).label).toBe("search started (act)");
    expect(model.view(pre!).label).toBe('tool.pre search {"query":"refunds"}');
    expect(model.view(post!).label).toMatch(/^tool\.post search \S+ ms → \{"hits":\["refunds: free within 30 days"\]\}$/);
    expect(model.tooltip(post!)).toContain("- call id: `");
    expect(model.view(post!).icon).toBe("check");
  });

  it("shows the same signals as a flat timeline on request", async () => {
    const { store, session } = await agentRun();
    const model = new SignalTreeModel(store);
    model.mode = "flat";
    const [sessionNode] = model.children(model.roots()[0]!);
    const rows = model.children(sessionNode!);
    expect(rows).toHaveLength(session.signals.length);
    expect(rows.every((row) => row.type === "signal")).toBe(true);
    expect(model.view(rows[0]!).label).toBe("session started · scripted-model");
  });

  it("finds the row of any signal, through its branch and call, for reveal", async () => {
    const { store, run, session } = await agentRun();
    const model = new SignalTreeModel(store);
    const record = session.model.entries.find((entry) => entry.facts.kindKey === "Signal")!;
    const node = model.signalNode(run, session, record)!;
    const path = model.pathTo(node)!.map((row) => row.type);
    expect(path).toEqual(["run", "session", "branch", "call", "call", "signal"]);
    expect(model.parent(node)?.type).toBe("call");
  });
});
