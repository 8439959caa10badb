// Where generated code lands: a new hooks/<name>.ts file, or a snippet at the editor's cursor.
import * as vscode from "vscode";
import { moduleKindOf, planRuntimeImports } from "./imports.js";
import { renderFile, renderInsertion, type Language, type TemplateOptions } from "./templates/index.js";

const LANGUAGES: Readonly<Record<string, Language>> = {
  typescript: "ts",
  typescriptreact: "ts",
  javascript: "js",
  javascriptreact: "js",
};

/** The language of an editor the hook can be inserted into, or undefined. */
export function editorLanguage(editor: vscode.TextEditor | undefined): Language | undefined {
  return editor ? LANGUAGES[editor.document.languageId] : undefined;
}

export function hookFileUri(folder: vscode.Uri, name: string): vscode.Uri {
  return vscode.Uri.joinPath(folder, "hooks", `${name}.ts`);
}

export async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

/** Writes the hook file (the caller has settled any overwrite question) and opens it. */
export async function writeHookFile(uri: vscode.Uri, options: TemplateOptions): Promise<vscode.TextEditor> {
  const text = renderFile(options, "ts");
  const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString());
  if (open) {
    // Replacing through the open document keeps its editor in step (a disk write could race the reload).
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, new vscode.Range(open.positionAt(0), open.positionAt(open.getText().length)), text);
    // A save is refused when another extension's save participant overruns VS Code's limit (a
    // busy machine): that is transient, so the second attempt normally goes through.
    const saved = async () => (await open.save()) || (await open.save());
    if (!(await vscode.workspace.applyEdit(edit)) || !(await saved())) throw new Error(`HookLens: could not replace ${vscode.workspace.asRelativePath(uri, false)}.`);
  } else {
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(uri, ".."));
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  }
  return vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
}

/** Adds the missing runtime imports, then inserts the hook as a snippet at the cursor. */
export async function insertAtCursor(editor: vscode.TextEditor, language: Language, options: TemplateOptions): Promise<void> {
  const document = editor.document;
  const { snippet, imports } = renderInsertion(options, language, moduleKindOf(document.getText(), language));
  let cursor = document.offsetAt(editor.selection.start);
  const selectionEnd = document.offsetAt(editor.selection.end);
  let replaceLength = selectionEnd - cursor;
  const importEdit = planRuntimeImports(document.getText(), imports, language);
  if (importEdit) {
    const applied = await editor.edit((edit) => edit.insert(document.positionAt(importEdit.offset), importEdit.text), { undoStopBefore: true, undoStopAfter: false });
    if (!applied) throw new Error("HookLens: could not add the @hooklens/runtime import to this editor.");
    // Offsets after an insertion at or before the cursor move by its length.
    if (importEdit.offset <= cursor) cursor += importEdit.text.length;
    else if (importEdit.offset < cursor + replaceLength) replaceLength += importEdit.text.length;
  }
  const range = new vscode.Range(document.positionAt(cursor), document.positionAt(cursor + replaceLength));
  const inserted = await editor.insertSnippet(new vscode.SnippetString(snippet), range, { undoStopBefore: false, undoStopAfter: true });
  if (!inserted) throw new Error("HookLens: could not insert the hook at the cursor.");
}
