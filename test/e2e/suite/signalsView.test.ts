import * as assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import * as vscode from "vscode";
import type { HookLensApi } from "../../../client/src/extension.js";
import type { LiveRun } from "../../../client/src/signals/signalStore.js";
import type { TreeNode } from "../../../client/src/signals/model/treeModel.js";
import { hookLens, runInTerminal, workspaceFolder } from "./hookLensApi.js";

const label = (api: HookLensApi, node: TreeNode | undefined): string => String(api.signalTree.getTreeItem(node!).label);
const labels = (api: HookLensApi, nodes: TreeNode[]): string[] => nodes.map((node) => label(api, node));

describe("the Signals view in a real VS Code", () => {
  let api: HookLensApi;
  let run: LiveRun;
  before(async () => {
    api = await hookLens();
    await vscode.commands.executeCommand("hooklens.signals.clear");
    run = await runInTerminal(api, "signals-agent.mjs");
    await vscode.commands.executeCommand("hooklens.signals.focus");
  });
  afterEach(async () => {
    await vscode.commands.executeCommand("hooklens.signals.clearFilter");
    await vscode.commands.executeCommand("hooklens.signals.showGrouped");
  });

  it("groups the run into its branch and tool calls, labelled by what happened", () => {
    const [runNode] = api.signalTree.getChildren();
    assert.match(String(api.signalTree.getTreeItem(runNode!).description), /^ended · pid \d+ · \d+ signals · 1 error · 1 denied$/);
    const [sessionNode] = api.signalTree.getChildren(runNode);
    const rows = api.signalTree.getChildren(sessionNode);
    assert.deepEqual(rows.map((row) => row.type), ["signal", "branch", "signal"]);
    const calls = labels(api, api.signalTree.getChildren(rows[1]));
    assert.equal(calls.length, 3);
    assert.match(calls[0]!, /^searchDocs \S+ ms$/);
    assert.equal(calls[1], "refund — failed: RangeError: refund of 70 needs a manager");
    assert.equal(calls[2], "refund — blocked by guard: amount > 100");
    const item = api.signalTree.getTreeItem(api.signalTree.getChildren(rows[1])[2]!);
    assert.equal((item.iconPath as vscode.ThemeIcon).id, "shield");
    assert.match(String(item.description), /^\+\d[\d,]* ms/);
  });

  it("opens a signal as a read-only document titled after what happened, and reveals its row", async () => {
    const session = [...run.sessions.values()][0]!;
    const error = session.model.entries.find((entry) => entry.facts.kindKey === "tool.error")!;
    const editor = (await vscode.commands.executeCommand("hooklens.signals.show", error.frame)) as vscode.TextEditor;
    const { document } = editor;
    assert.equal(document.uri.scheme, "hooklens-signal");
    assert.equal(document.uri.path, "/tool.error · refund.json");
    assert.equal(document.languageId, "json");
    const shown = JSON.parse(document.getText()) as { time: string; payload: { createdAt: string } };
    assert.match(shown.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.match(shown.payload.createdAt, /Z$/);
    assert.equal(document.isDirty, false);
    await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
    // Closing asked nothing: no dirty editor is left behind.
    assert.equal(vscode.workspace.textDocuments.filter((doc) => doc.isDirty).length, 0);
    const selected = api.signalsView.treeView.selection[0];
    if (api.signalsView.treeView.visible) assert.equal(selected?.type === "signal" && selected.entry, error);
  });

  it("reveals the line that made a call's tool and the line that registered the guard that blocked it (row, document title bar)", async () => {
    const lines = readFileSync(join(workspaceFolder().uri.fsPath, "signals-agent.mjs"), "utf8").split("\n");
    const lineOf = (text: string): number => lines.findIndex((line) => line.includes(text));
    const [sessionNode] = api.signalTree.getChildren(api.signalTree.getChildren()[0]);
    const [start, branch] = api.signalTree.getChildren(sessionNode);
    const blocked = api.signalTree.getChildren(branch)[2]!;
    assert.equal(api.signalTree.getTreeItem(blocked).contextValue, "hooklens.call.source");
    const tool = (await vscode.commands.executeCommand("hooklens.signals.revealSource", blocked)) as vscode.TextEditor;
    assert.equal(basename(tool.document.uri.fsPath), "signals-agent.mjs");
    // `new Tool({` is the line before the refund tool's name.
    assert.equal(tool.selection.active.line, lineOf('name: "refund"') - 1);
    const denial = [...run.sessions.values()][0]!.model.entries.find((entry) => entry.facts.kindKey === "ToolCallBlocked")!;
    const shown = (await vscode.commands.executeCommand("hooklens.signals.show", denial.frame)) as vscode.TextEditor;
    const guard = (await vscode.commands.executeCommand("hooklens.signals.revealSource", shown.document.uri)) as vscode.TextEditor;
    assert.equal(basename(guard.document.uri.fsPath), "signals-agent.mjs");
    assert.equal(guard.selection.active.line, lineOf("bus.on(HookPoint.TOOL_PRE"));
    // A signal that names no place offers no Reveal Source.
    assert.equal(api.signalTree.getTreeItem(start!).contextValue, "hooklens.signal");
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
  });

  it("filters by text, kind, tool and to errors and denials only", async () => {
    await vscode.commands.executeCommand("hooklens.signals.showProblemsOnly");
    const [sessionNode] = api.signalTree.getChildren(api.signalTree.getChildren()[0]);
    const [branch] = api.signalTree.getChildren(sessionNode);
    assert.deepEqual(labels(api, api.signalTree.getChildren(branch)), ["refund — failed: RangeError: refund of 70 needs a manager", "refund — blocked by guard: amount > 100"]);
    await vscode.commands.executeCommand("hooklens.signals.filter", "tool:searchDocs");
    const [only] = api.signalTree.getChildren(api.signalTree.getChildren(api.signalTree.getChildren(api.signalTree.getChildren()[0])[0])[0]);
    assert.match(label(api, only), /^searchDocs/);
    assert.match(api.signalsView.treeView.message ?? "", /^Filter tool:searchDocs: \d+ of \d+ signals match\.$/);
    await vscode.commands.executeCommand("hooklens.signals.filterByKind", ["ToolCallBlocked"]);
    // No searchDocs call was blocked: the run stays, with no session left to show.
    assert.deepEqual(api.signalTree.getChildren(api.signalTree.getChildren()[0]), []);
  });

  it("shows a flat timeline on request", async () => {
    await vscode.commands.executeCommand("hooklens.signals.showFlat");
    const [sessionNode] = api.signalTree.getChildren(api.signalTree.getChildren()[0]);
    const rows = api.signalTree.getChildren(sessionNode);
    assert.equal(rows.length, [...run.sessions.values()][0]!.signals.length);
    assert.ok(rows.every((row) => row.type === "signal"));
  });

  it("copies a call as JSON, exports the run to NDJSON and opens the export as a run of its own", async () => {
    const [sessionNode] = api.signalTree.getChildren(api.signalTree.getChildren()[0]);
    const [, branch] = api.signalTree.getChildren(sessionNode);
    const blocked = api.signalTree.getChildren(branch)[2]!;
    const copied = (await vscode.commands.executeCommand("hooklens.signals.copyJson", blocked)) as string;
    assert.equal(await vscode.env.clipboard.readText(), copied);
    const kinds = (JSON.parse(copied) as Array<{ kind: string }>).map((frame) => frame.kind);
    assert.ok(kinds.includes("ToolCallBlocked"), `the blocked call's signals: ${kinds.join(", ")}`);

    const file = join(workspaceFolder().uri.fsPath, "run.signals.ndjson");
    const runNode = api.signalTree.getChildren()[0]!;
    assert.equal(await vscode.commands.executeCommand("hooklens.signals.exportRun", runNode, { file }), file);
    const lines = readFileSync(file, "utf8").trim().split("\n");
    assert.equal(lines.length, 1 + [...run.sessions.values()][0]!.signals.length);
    const opened = (await vscode.commands.executeCommand("hooklens.signals.openExport", { file })) as LiveRun;
    assert.equal(opened.recordedFrom, file);
    assert.deepEqual([...opened.sessions.values()][0]!.signals, [...run.sessions.values()][0]!.signals);
    assert.equal(await vscode.commands.executeCommand("hooklens.signals.removeRun", api.signalTree.getChildren().find((node) => node.type === "run" && node.run === opened)), true);
    assert.equal(api.signals.runs().includes(opened), false);
  });
});
