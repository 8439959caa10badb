import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { hookLens, workspaceFolder } from "./hookLensApi.js";
import { waitFor } from "./waitFor.js";

describe("diagnostics in a real VS Code", () => {
  it("reports HL001 on the dormant point argument of an opened file", async () => {
    await hookLens();
    const uri = vscode.Uri.joinPath(workspaceFolder().uri, "dormant.ts");
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const hl001 = () => vscode.languages.getDiagnostics(uri).filter((d) => d.source === "hooklens" && codeOf(d) === "HL001");
    const [diagnostic] = await waitFor((listener) => vscode.languages.onDidChangeDiagnostics(listener), () => hl001().length > 0 && hl001(), "HL001 on dormant.ts");
    assert.equal(hl001().length, 1);
    assert.equal(diagnostic!.severity, vscode.DiagnosticSeverity.Warning);
    assert.deepEqual(
      [diagnostic!.range.start.line, diagnostic!.range.start.character, diagnostic!.range.end.line, diagnostic!.range.end.character],
      [3, 7, 3, 29],
    );
    assert.match(diagnostic!.message, /API_PRE_CALL.*never runs/);
    const target = typeof diagnostic!.code === "object" ? diagnostic!.code.target.toString() : "";
    assert.match(target, /docs\/rules\/HL001\.md$/);
  });

  it("opens a rule code's page (the Problems panel's link) as its rendered preview, never as an editable file", async () => {
    const uri = vscode.Uri.joinPath(workspaceFolder().uri, "dormant.ts");
    const [diagnostic] = vscode.languages.getDiagnostics(uri).filter((d) => d.source === "hooklens" && codeOf(d) === "HL001");
    const target = typeof diagnostic?.code === "object" ? diagnostic.code.target : undefined;
    assert.ok(target, "HL001 links to its page");
    const pageTabs = () => vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => tab.label.includes("HL001"));
    // What the Problems panel does with the link: open it.
    await vscode.commands.executeCommand("vscode.open", target);
    await waitFor(
      (listener) => vscode.window.tabGroups.onDidChangeTabs(listener),
      () => pageTabs().some((tab) => tab.input instanceof vscode.TabInputWebview && /markdown/i.test(tab.input.viewType)),
      "the Markdown preview of HL001.md",
    );
    await waitFor(
      (listener) => vscode.window.tabGroups.onDidChangeTabs(listener),
      () => !pageTabs().some((tab) => tab.input instanceof vscode.TabInputText),
      "the text editor of HL001.md to close",
    );
    await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
  });

  it("clears the warning when the registration moves to a point that emits", async () => {
    const uri = vscode.Uri.joinPath(workspaceFolder().uri, "dormant.ts");
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const line = editor.document.lineAt(3);
    const start = line.text.indexOf("HookPoint.API_PRE_CALL");
    await editor.edit((edit) => edit.replace(new vscode.Range(3, start, 3, start + "HookPoint.API_PRE_CALL".length), "HookPoint.TOOL_POST"));
    await waitFor((listener) => vscode.languages.onDidChangeDiagnostics(listener), () => vscode.languages.getDiagnostics(uri).every((d) => d.source !== "hooklens"), "HL001 to clear");
  });
});

function codeOf(diagnostic: vscode.Diagnostic): string | number | undefined {
  return typeof diagnostic.code === "object" ? diagnostic.code.value : diagnostic.code;
}
