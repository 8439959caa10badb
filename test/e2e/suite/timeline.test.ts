import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import type { TimelineBar, ToWebview } from "../../../client/src/timeline/protocol.js";
import { hookLens, workspaceFolder } from "./hookLensApi.js";
import { waitFor } from "./waitFor.js";

describe("the timeline webview in a real VS Code", () => {
  // Later suites expect the Signals view to hold only their own runs.
  after(() => vscode.commands.executeCommand("hooklens.signals.clear"));

  it("shows a live run's tool calls as bars, opens a clicked bar's signal and ignores malformed messages", async () => {
    const api = await hookLens();
    await vscode.commands.executeCommand("hooklens.signals.clear");
    await vscode.commands.executeCommand("hooklens.timeline.show");
    const panel = api.timeline();
    assert.ok(panel, "the command opened the timeline");
    const posted: ToWebview[] = [];
    const subscription = panel.onDidPost((message) => posted.push(message));
    const terminal = vscode.window.createTerminal({ name: "hooklens timeline e2e", cwd: workspaceFolder().uri });
    try {
      terminal.sendText("node timeline-agent.mjs");
      // The webview loads, says it is ready, and receives the run as it streams in.
      const calls = await waitFor(
        (listener) => panel.onDidPost(listener),
        () => {
          const bars = new Map<string, TimelineBar>();
          for (const message of posted) {
            if (message.type === "reset") bars.clear();
            for (const id of message.type === "update" ? message.remove : []) bars.delete(id);
            for (const bar of message.type === "reset" ? message.layout.bars : message.upsert) bars.set(bar.id, bar);
          }
          const ended = [...bars.values()].filter((bar) => (bar.kind === "tool" || bar.kind === "model") && bar.status !== "open");
          return ended.length === 4 ? ended : undefined;
        },
        "the timeline to show the run's model call and three tool calls, all ended",
      );
      assert.deepEqual(
        calls.map((bar) => [bar.kind, bar.label, bar.status]),
        [
          ["model", "model scripted-model", "ok"],
          ["tool", "searchDocs", "ok"],
          ["tool", "refund", "error"],
          ["tool", "deleteFile", "denied"],
        ],
      );
      assert.equal(calls[0]!.phases.length, 5, "the model call's pre, three chunks and post");
      const refund = calls[2]!;
      await panel.handleMessage({ type: "openSignal", sessionId: refund.sessionId, signalId: refund.signalId });
      const shown = JSON.parse(vscode.window.activeTextEditor!.document.getText()) as { id: string; payload: { point: string } };
      assert.equal(shown.id, refund.signalId);
      assert.equal(shown.payload.point, "tool.error");

      const editorBefore = vscode.window.activeTextEditor;
      await panel.handleMessage({ type: "openSignal", signalId: 42 });
      await panel.handleMessage({ type: "runCommand", command: "workbench.action.quit" });
      assert.equal(vscode.window.activeTextEditor, editorBefore, "malformed messages change nothing");
    } finally {
      subscription.dispose();
      terminal.dispose();
    }
  });
});
