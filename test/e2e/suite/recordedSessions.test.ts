import * as assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import * as vscode from "vscode";
import type { LiveRun } from "../../../client/src/signals/signalStore.js";
import { hookLens, workspaceFolder } from "./hookLensApi.js";

const OPEN_RECORDING = "hooklens.signals.openRecording";

/** Runs the recording fixture as a user's program would run (Node, in the workspace) and returns its session id. */
async function recordASession(): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, ["record-agent.mjs"], {
    cwd: workspaceFolder().uri.fsPath,
    env: { ...process.env, ELECTRON_RUN_AS_NODE: "1" },
  });
  return stdout.trim().split("\n").pop()!;
}

describe("recorded sessions in a real VS Code", () => {
  it("opens a session recorded in the workspace's .hooklens/signals.db like a live one", async () => {
    const api = await hookLens();
    const sessionId = await recordASession();
    const run = await vscode.commands.executeCommand<LiveRun | undefined>(OPEN_RECORDING, { sessionId });
    assert.ok(run, "the command returned the recorded run");
    assert.equal(run.recordedFrom, join(workspaceFolder().uri.fsPath, ".hooklens", "signals.db"));
    const session = run.sessions.get(sessionId);
    assert.ok(session);
    assert.deepEqual(
      session.signals.map((s) => s.payload["point"]),
      ["session.start", "tool.pre", "tool.post", "session.end"],
    );
    const runNode = api.signalTree.getChildren().find((node) => node.type === "run" && node.run === run);
    assert.ok(runNode, "the tree shows the recording");
    assert.equal(api.signalTree.getTreeItem(runNode).description, "recorded · 4 signals");
    // Titled after the program that recorded it (the runtime names it on session.start).
    assert.equal(api.signalTree.getTreeItem(runNode).label, `record-agent.mjs · ${sessionId.slice(0, 8)}`);
  });

  it("reports a file that is not a signal database without adding anything", async () => {
    const api = await hookLens();
    const bogus = join(workspaceFolder().uri.fsPath, "not-a-db.db");
    writeFileSync(bogus, "this is not SQLite\n".repeat(100));
    const before = api.signals.runs().length;
    const run = await vscode.commands.executeCommand<LiveRun | undefined>(OPEN_RECORDING, { file: bogus, sessionId: "x" });
    assert.equal(run, undefined);
    assert.equal(api.signals.runs().length, before);
  });

  it("rejects unknown arguments without opening anything", async () => {
    const runs = (await hookLens()).signals.runs().length;
    await assert.rejects(Promise.resolve(vscode.commands.executeCommand(OPEN_RECORDING, { session: "typo" })), /bad arguments for Open Recorded Session: Unrecognized key: "session"/);
    assert.equal((await hookLens()).signals.runs().length, runs);
  });
});
