import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import type { HookLensApi } from "../../../client/src/extension.js";
import type { TreeNode } from "../../../client/src/signals/model/treeModel.js";
import { hookLens, runInTerminal } from "./hookLensApi.js";

// Every command reachable from a menu of package.json must accept what that menu passes: the view's
// title bar passes the selected row (and the selection), a row's context menu the row and the
// selection, an editor's title bar the editor's resource and its group, the Command Palette nothing.
// Each is invoked so; a picker or dialog it opens is dismissed; none may fail.

interface MenuItem {
  command: string;
  when?: string;
}

/** Rows of the Signals tree, depth first, at most `limit` of them. */
function treeRows(api: HookLensApi, limit = 400): TreeNode[] {
  const rows: TreeNode[] = [];
  const walk = (parent: TreeNode | undefined): void => {
    for (const node of api.signalTree.getChildren(parent)) {
      if (rows.length >= limit) return;
      rows.push(node);
      if (api.signalTree.getTreeItem(node).collapsibleState !== vscode.TreeItemCollapsibleState.None) walk(node);
    }
  };
  walk(undefined);
  return rows;
}

/** The `viewItem =~ /…/` test of a `when` clause, if it has one. */
function viewItemPattern(when: string | undefined): RegExp | null {
  const match = /viewItem =~ \/(.+?)\/(?:\s|$|\))/.exec(when ?? "");
  return match ? new RegExp(match[1]!) : null;
}

/** Runs a command with `args`, dismissing any picker or dialog it opens, until it settles. */
async function invoke(command: string, args: unknown[]): Promise<void> {
  const dismiss = setInterval(() => void vscode.commands.executeCommand("workbench.action.closeQuickOpen"), 300);
  try {
    await vscode.commands.executeCommand(command, ...args);
  } catch (error) {
    throw new Error(`${command} failed with the arguments its menu passes: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    clearInterval(dismiss);
  }
}

/** Commands that remove what the others need run last. */
const LAST = new Set(["hooklens.signals.removeRun", "hooklens.signals.clear"]);

describe("every menu command accepts what its menu passes", () => {
  let api: HookLensApi;
  before(async () => {
    api = await hookLens();
    await vscode.commands.executeCommand("hooklens.signals.clear");
    await runInTerminal(api, "signals-agent.mjs");
    await vscode.commands.executeCommand("hooklens.signals.focus");
  });

  it("invokes each menu entry of package.json with its menu's arguments", async () => {
    const menus = vscode.extensions.getExtension("hooklens.hooklens")!.packageJSON.contributes.menus as Record<string, MenuItem[]>;
    const rows = treeRows(api);
    const contextOf = (node: TreeNode): string => api.signalTree.getTreeItem(node).contextValue ?? "";
    const runRow = rows.find((node) => node.type === "run")!;
    const signalRow = rows.find((node) => node.type === "signal")!;
    assert.ok(runRow && signalRow, "the run shows a run row and signal rows");
    const document = await api.signalsView.showSignal(signalRow);
    assert.ok(document, "a signal opens as a document");
    const calls: Array<{ menu: string; command: string; args: unknown[] }> = [];
    for (const [menu, items] of Object.entries(menus)) {
      for (const { command, when } of items) {
        if (menu === "commandPalette") {
          if (when !== "false") calls.push({ menu, command, args: [] });
        } else if (menu === "view/title") {
          calls.push({ menu, command, args: [] });
          for (const row of [runRow, signalRow]) calls.push({ menu, command, args: [row, [row]] });
        } else if (menu === "view/item/context") {
          const pattern = viewItemPattern(when);
          assert.ok(pattern, `${command} in ${menu} names the rows it is for`);
          // A row with the context the entry asks for, when this run shows one (a source location is optional).
          const row = rows.find((node) => pattern.test(contextOf(node)));
          if (row) calls.push({ menu, command, args: [row, [row]] });
          else assert.match(pattern.source, /source/, `no row of the run matches ${pattern} for ${command}`);
        } else if (menu === "editor/title") {
          calls.push({ menu, command, args: [document.document.uri, { groupId: 1 }] });
        } else assert.fail(`the test does not know what ${menu} passes`);
      }
    }
    calls.sort((a, b) => Number(LAST.has(a.command)) - Number(LAST.has(b.command)));
    assert.ok(calls.some((call) => call.command === "hooklens.signals.openRecording" && call.args.length > 0));
    for (const { command, args } of calls) await invoke(command, args);
  });
});
