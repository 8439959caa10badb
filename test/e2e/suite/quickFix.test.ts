import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { hookLens, workspaceFolder } from "./hookLensApi.js";
import { waitFor } from "./waitFor.js";

describe("quick fixes in a real VS Code", () => {
  it("fixes HL003 by declaring the event and chunk-type parameters", async () => {
    await hookLens();
    const uri = vscode.Uri.joinPath(workspaceFolder().uri, "stream.ts");
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const hl003 = () => vscode.languages.getDiagnostics(uri).find((d) => d.source === "hooklens" && typeof d.code === "object" && d.code.value === "HL003");
    const diagnostic = await waitFor((listener) => vscode.languages.onDidChangeDiagnostics(listener), hl003, "HL003 on stream.ts");
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>("vscode.executeCodeActionProvider", uri, diagnostic.range, vscode.CodeActionKind.QuickFix.value);
    const fix = actions.find((a) => a.title.startsWith("Declare the (event, chunkType) parameters"));
    assert.ok(fix?.edit, `expected the HL003 quick fix among: ${actions.map((a) => a.title).join(", ")}`);
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    assert.match(editor.document.lineAt(2).text, /text: \(_event: null, _chunkType: string, chunk: unknown\) =>/);
    await waitFor((listener) => vscode.languages.onDidChangeDiagnostics(listener), () => !hl003(), "HL003 to clear after the fix");
  });
});
