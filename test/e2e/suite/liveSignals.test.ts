import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { hookLens, workspaceFolder } from "./hookLensApi.js";
import { waitFor } from "./waitFor.js";

const EXPECTED_POINTS = ["session.start", "tool.pre", "tool.post", "session.end"];

describe("live signals in a real VS Code", () => {
  it("streams the signals of a program run in an integrated terminal into the signals view", async () => {
    const api = await hookLens();
    const terminal = vscode.window.createTerminal({ name: "hooklens e2e", cwd: workspaceFolder().uri });
    try {
      terminal.sendText("node live-agent.mjs");
      const run = await waitFor(
        (listener) => api.signals.onDidChange(listener),
        () => api.signals.runs().find((r) => r.title === "live-agent.mjs" && !r.connected),
        "live-agent.mjs to stream its signals and say bye",
      );
      const [session] = [...run.sessions.values()];
      assert.ok(session, "the run reported a session");
      const points = session.signals.map((s) => s.payload["point"]);
      // The denied TOOL_PRE (the guard threw) is not recorded: exactly the four successful chains.
      assert.deepEqual(points, EXPECTED_POINTS);
      assert.equal(run.dropped, 0);
    } finally {
      terminal.dispose();
    }
  });

  it("injects the live endpoint into Node debug sessions", async () => {
    const api = await hookLens();
    const before = api.signals.runs().length;
    const started = await vscode.debug.startDebugging(workspaceFolder(), {
      type: "node",
      request: "launch",
      name: "hooklens e2e live agent",
      program: "${workspaceFolder}/live-agent.mjs",
      console: "internalConsole",
    });
    assert.ok(started, "the debug session started");
    const run = await waitFor(
      (listener) => api.signals.onDidChange(listener),
      () => api.signals.runs().slice(before).find((r) => r.title === "live-agent.mjs" && !r.connected),
      "the debugged program to stream its signals",
    );
    assert.deepEqual([...run.sessions.values()][0]!.signals.map((s) => s.payload["point"]), EXPECTED_POINTS);
  });

  it("shows the runs, sessions, calls and signals in the HookLens Signals tree", async () => {
    const api = await hookLens();
    const [runNode] = api.signalTree.getChildren();
    assert.ok(runNode);
    assert.equal(api.signalTree.getTreeItem(runNode).label, "live-agent.mjs");
    const [sessionNode] = api.signalTree.getChildren(runNode);
    const rows = api.signalTree.getChildren(sessionNode);
    const labels = rows.map((node) => api.signalTree.getTreeItem(node).label);
    // The tool call's pre and post are one row, named after the tool, with its duration.
    assert.equal(labels.length, 3);
    assert.equal(labels[0], "session started · scripted");
    assert.match(String(labels[1]), /^search \S+ ms$/);
    assert.equal(labels[2], "session ended · completed");
    const points = api.signalTree.getChildren(rows[1]).map((node) => api.signalTree.getTreeItem(node).label);
    assert.deepEqual(points, ['tool.pre search {"query":"hooks"}', 'tool.post search 10 ms → ["a","b"]']);
    // Clicking a signal opens it as a read-only document.
    const click = api.signalTree.getTreeItem(rows[0]!).command!;
    await vscode.commands.executeCommand(click.command, ...(click.arguments ?? []));
    const document = vscode.window.activeTextEditor!.document;
    assert.equal(document.uri.scheme, "hooklens-signal");
    const shown = JSON.parse(document.getText()) as { point: string; time: string };
    assert.equal(shown.point, "session.start");
    await vscode.commands.executeCommand("hooklens.signals.clear");
    assert.deepEqual(api.signalTree.getChildren(), []);
  });
});
