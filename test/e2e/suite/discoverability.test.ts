import * as assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { hookLens, workspaceFolder } from "./hookLensApi.js";
import { poll, waitFor } from "./waitFor.js";

/** The HookLens output channel as VS Code writes it to the profile's logs (a LogOutputChannel). */
function outputLog(): string {
  const userData = process.env["HOOKLENS_E2E_USER_DATA"];
  assert.ok(userData, "run.mjs names the profile's user-data folder");
  const found: string[] = [];
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (/HookLens\.log$/.test(entry.name)) found.push(readFileSync(path, "utf8"));
    }
  };
  visit(join(userData, "logs"));
  return found.join("\n");
}

describe("finding HookLens in a real VS Code", () => {
  // Later suites expect the Signals view to hold only their own runs.
  after(() => vscode.commands.executeCommand("hooklens.signals.clear"));

  it("counts live programs and signals in the status bar and logs each connection in the output channel", async () => {
    const api = await hookLens();
    await vscode.commands.executeCommand("hooklens.signals.clear");
    await poll(() => api.statusText() === "$(pulse) HookLens 0 signals", "the status item to show no signals after Clear");
    const terminal = vscode.window.createTerminal({ name: "hooklens status e2e", cwd: workspaceFolder().uri });
    try {
      terminal.sendText("node timeline-agent.mjs");
      const run = await waitFor(
        (listener) => api.signals.onDidChange(listener),
        () => api.signals.runs().find((r) => r.title === "timeline-agent.mjs" && !r.connected),
        "timeline-agent.mjs to stream its signals and say bye",
      );
      const count = api.signals.signalCount();
      assert.ok(count > 10);
      await poll(() => api.statusText() === `$(pulse) HookLens ${count} signals`, `the status item to count ${count} signals`);
      await poll(
        () => {
          const log = outputLog();
          return log.includes(`timeline-agent.mjs (pid ${run.pid}, connection ${run.connectionId}) connected`) &&
            log.includes(`timeline-agent.mjs (pid ${run.pid}, connection ${run.connectionId}) disconnected after ${count} signals in 1 session`);
        },
        "the output channel to log the program's connection and disconnection",
      );
      assert.match(outputLog(), /live server: listening at /);
    } finally {
      terminal.dispose();
    }
  });

  it("brings the Signals view forward once when a debug session's first signal arrives", async () => {
    const api = await hookLens();
    const before = api.debugReveals();
    const started = await vscode.debug.startDebugging(workspaceFolder(), {
      type: "node",
      request: "launch",
      name: "hooklens e2e reveal",
      program: "${workspaceFolder}/timeline-agent.mjs",
      console: "internalConsole",
    });
    assert.ok(started, "the debug session started");
    await poll(() => api.debugReveals() === before + 1, "the Signals view to be revealed");
    await waitFor((listener) => vscode.debug.onDidTerminateDebugSession(listener), () => vscode.debug.activeDebugSession === undefined, "the debug session to end");
    assert.equal(api.debugReveals(), before + 1, "once per debug session");
  });

  it("restarts the language server with HookLens: Restart Server, which then analyses again", async () => {
    await hookLens();
    const runningLines = () => outputLog().split("\n").filter((line) => line.includes("language server: running")).length;
    const before = await poll(() => runningLines() || false, "the output channel to log the server running");
    await vscode.commands.executeCommand("hooklens.server.restart");
    await poll(() => runningLines() > before, "the restarted server to run");
    const document = await vscode.workspace.openTextDocument({
      language: "typescript",
      content: 'import { HookBus, HookPoint } from "@hooklens/runtime";\nconst bus = new HookBus();\nbus.on(HookPoint.API_PRE_CALL, () => undefined);\n',
    });
    await vscode.window.showTextDocument(document);
    const hl001 = () => vscode.languages.getDiagnostics(document.uri).some((d) => d.source === "hooklens");
    await waitFor((listener) => vscode.languages.onDidChangeDiagnostics(listener), () => hl001(), "the restarted server's diagnostics");
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
  });
});
