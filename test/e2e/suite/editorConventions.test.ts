import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { hookLens, workspaceFolder } from "./hookLensApi.js";
import { waitFor } from "./waitFor.js";

const onDiagnostics = (listener: () => void) => vscode.languages.onDidChangeDiagnostics(listener);

function hookLensDiagnostics(uri: vscode.Uri, code: string): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === "hooklens" && typeof d.code === "object" && d.code.value === code);
}

describe("what ESLint users expect, in a real VS Code", () => {
  it("silences HL001 with the 'Disable HL001 for this line' action's comment, and offers the rule's documentation", async () => {
    await hookLens();
    const uri = vscode.Uri.joinPath(workspaceFolder().uri, "suppressed.ts");
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const [diagnostic] = await waitFor(onDiagnostics, () => hookLensDiagnostics(uri, "HL001").length > 0 && hookLensDiagnostics(uri, "HL001"), "HL001 on suppressed.ts");
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>("vscode.executeCodeActionProvider", uri, diagnostic!.range, vscode.CodeActionKind.QuickFix.value);
    const titles = actions.map((a) => a.title);
    assert.ok(titles.includes("Disable HL001 for this file"), titles.join(", "));
    const docs = actions.find((a) => a.title === "Show documentation for HL001");
    assert.ok(docs?.command, `expected the documentation action among: ${titles.join(", ")}`);
    await vscode.commands.executeCommand(docs.command.command, ...(docs.command.arguments ?? []));
    const preview = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.label.includes("HL001.md"));
    await waitFor((listener) => vscode.window.tabGroups.onDidChangeTabs(listener), preview, "the Markdown preview of HL001.md");
    assert.ok(!(preview()!.input instanceof vscode.TabInputText), "the documentation opens as a preview, not as an editable file");

    const disable = actions.find((a) => a.title === "Disable HL001 for this line");
    assert.ok(disable?.edit, `expected 'Disable HL001 for this line' among: ${titles.join(", ")}`);
    assert.ok(await vscode.workspace.applyEdit(disable.edit));
    assert.equal(editor.document.lineAt(3).text, "// hooklens-disable-next-line HL001");
    await waitFor(onDiagnostics, () => hookLensDiagnostics(uri, "HL001").length === 0, "HL001 to be silenced by the comment");
  });

  it("turns HL001 off through the hooklens.rules setting, and back on when the setting is removed", async () => {
    await hookLens();
    const uri = vscode.Uri.joinPath(workspaceFolder().uri, "settings.ts");
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    await waitFor(onDiagnostics, () => hookLensDiagnostics(uri, "HL001").length > 0, "HL001 on settings.ts");
    const configuration = vscode.workspace.getConfiguration("hooklens");
    await configuration.update("rules", { HL001: "off" }, vscode.ConfigurationTarget.Workspace);
    try {
      await waitFor(onDiagnostics, () => hookLensDiagnostics(uri, "HL001").length === 0, "HL001 to go once the setting turns it off");
    } finally {
      await configuration.update("rules", undefined, vscode.ConfigurationTarget.Workspace);
    }
    await waitFor(onDiagnostics, () => hookLensDiagnostics(uri, "HL001").length > 0, "HL001 to come back without the setting");
  });
});
