import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { renderFile, renderInsertion } from "../../../client/src/scaffold/templates/index.js";
import { hookLens, workspaceFolder } from "./hookLensApi.js";
import { waitFor } from "./waitFor.js";

const COMMAND = "hooklens.scaffold.newHook";

// A known HL001 appended after the generated code: once the server reports it, the diagnostics
// are those of a version that includes the generated code, so "none above it" is a real answer.
const PROBE = '\nimport { HookBus as ProbeBus } from "@hooklens/runtime";\nnew ProbeBus().on("api.pre_call", () => undefined);\n';

async function assertNoHookLensDiagnostics(editor: vscode.TextEditor): Promise<void> {
  const { document } = editor;
  const generated = document.getText();
  const generatedLines = document.lineCount - 1;
  assert.ok(await editor.edit((edit) => edit.insert(document.lineAt(document.lineCount - 1).range.end, PROBE)));
  const hookLensDiagnostics = () => vscode.languages.getDiagnostics(document.uri).filter((d) => d.source === "hooklens");
  await waitFor(
    (listener) => vscode.languages.onDidChangeDiagnostics(listener),
    () => hookLensDiagnostics().some((d) => d.range.start.line >= generatedLines && /API_PRE_CALL/.test(d.message)),
    `the probe's HL001 on ${vscode.workspace.asRelativePath(document.uri)}`,
  );
  const onGenerated = hookLensDiagnostics().filter((d) => d.range.start.line < generatedLines);
  assert.deepEqual(onGenerated.map((d) => `${d.range.start.line + 1}: ${d.message}`), []);
  // Drop the probe again: the document goes back to what the command wrote. The command returns
  // before the extension host's copy of the document has caught up; an edit made before then
  // (the next test's overwrite) names a stale version and is refused.
  await vscode.commands.executeCommand("workbench.action.files.revert");
  await waitFor(
    (listener) => vscode.workspace.onDidChangeTextDocument(listener),
    () => !document.isDirty && document.getText() === generated,
    `${vscode.workspace.asRelativePath(document.uri)} reverted`,
  );
}

describe("scaffolding hooks from the command palette", () => {
  before(async () => {
    await hookLens();
    // code-server saves an edited file after a second by default; the probe edit above must stay
    // unsaved until it is reverted (a slow analysis once let the auto-save write it to disk).
    await vscode.workspace.getConfiguration("files").update("autoSave", "off", vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    await vscode.workspace.getConfiguration("files").update("autoSave", undefined, vscode.ConfigurationTarget.Global);
  });

  it("contributes HookLens: New Hook… to the palette", async () => {
    assert.ok((await vscode.commands.getCommands(true)).includes(COMMAND));
  });

  it("creates hooks/<name>.ts from arguments, opens it, and the server finds nothing in it", async () => {
    const options = { kind: "session", name: "guardToolCalls", hookPoint: "tool.pre" } as const;
    const uri = await vscode.commands.executeCommand<vscode.Uri>(COMMAND, { ...options, target: "file" });
    const expected = vscode.Uri.joinPath(workspaceFolder().uri, "hooks", "guardToolCalls.ts");
    assert.equal(uri.toString(), expected.toString());
    const written = new TextDecoder().decode(await vscode.workspace.fs.readFile(expected));
    assert.equal(written, renderFile(options));
    assert.match(written, /^import \{ type HookBus, HookPoint, type PayloadOf \} from "@hooklens\/runtime";/);
    assert.match(written, /return bus\.on\(HookPoint\.TOOL_PRE, guardToolCalls\);/);
    const editor = vscode.window.activeTextEditor;
    assert.equal(editor?.document.uri.toString(), expected.toString(), "the new file is the active editor");
    assert.equal(editor.document.isDirty, false);
    await assertNoHookLensDiagnostics(editor);
  });

  it("refuses to overwrite an existing hook file unless asked, and explains bad arguments", async () => {
    const args = { kind: "tool", name: "guardToolCalls", toolName: "search", target: "file" };
    await assert.rejects(Promise.resolve(vscode.commands.executeCommand(COMMAND, args)), /hooks\/guardToolCalls\.ts already exists; pass "overwrite": true/);
    await assert.rejects(
      Promise.resolve(vscode.commands.executeCommand(COMMAND, { kind: "session", name: "late", hookPoint: "api.post_call", target: "file" })),
      /invalid arguments for hooklens\.scaffold\.newHook: hookPoint: HookPoint\.API_POST_CALL \("api\.post_call"\) is dormant/,
    );
    const uri = await vscode.commands.executeCommand<vscode.Uri>(COMMAND, { ...args, overwrite: true });
    const text = vscode.window.activeTextEditor?.document.getText() ?? "";
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), uri.toString());
    assert.match(text, /\.post\("search", \(_toolName, _action, _args, result\) => \{/);
    await assertNoHookLensDiagnostics(vscode.window.activeTextEditor!);
  });

  it("inserts at the cursor as a snippet and adds the import to the existing one", async () => {
    const uri = vscode.Uri.joinPath(workspaceFolder().uri, "scaffold-target.ts");
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const before = editor.document.getText();
    const end = editor.document.positionAt(before.length);
    editor.selection = new vscode.Selection(end, end);
    const options = { kind: "middleware", name: "AuditCalls", phases: ["beforeTool", "onLlmEnd"] } as const;

    const result = await vscode.commands.executeCommand<vscode.Uri>(COMMAND, { ...options, target: "cursor" });
    assert.equal(result.toString(), uri.toString());
    const { text } = renderInsertion(options, "ts");
    const expected =
      before.replace("import { Session } from", "import { Session, Hook, type LedgerEntry, type LLMInvocation, type ShortCircuit, type ToolInvocation } from") + text;
    assert.equal(editor.document.getText(), expected);
    // Snippet mode: the first placeholder is selected, ready to be typed over.
    assert.equal(editor.document.getText(editor.selection), "return null;");
    await editor.document.save();
    await assertNoHookLensDiagnostics(editor);
  });
});
