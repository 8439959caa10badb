// hooklens.scaffold.newHook: asks (or takes as arguments) what to scaffold and where, then writes it.
import * as vscode from "vscode";
import { parseScaffoldArgs, type ScaffoldArgs } from "./options.js";
import { askTarget, askTemplateOptions, confirmOverwrite } from "./prompts.js";
import { editorLanguage, exists, hookFileUri, insertAtCursor, writeHookFile } from "./targets.js";

export const NEW_HOOK_COMMAND = "hooklens.scaffold.newHook";

export function registerScaffoldCommands(): vscode.Disposable {
  return vscode.commands.registerCommand(NEW_HOOK_COMMAND, newHook);
}

/**
 * With an argument object (tests, keybindings) nothing is asked: invalid arguments reject with
 * a message naming each bad field. Without one (palette, or a menu passing a Uri) it asks.
 * Resolves with the document that received the hook, or undefined when the user cancelled.
 */
export async function newHook(args?: unknown): Promise<vscode.Uri | undefined> {
  const scripted = args !== undefined && args !== null && !(args instanceof vscode.Uri);
  const request = scripted ? parsedOrThrow(args) : await ask();
  if (!request) return undefined;

  if (request.target === "cursor") {
    const editor = vscode.window.activeTextEditor;
    const language = editorLanguage(editor);
    if (!editor || !language) throw new Error("HookLens: open a TypeScript or JavaScript file to insert a hook at the cursor.");
    await insertAtCursor(editor, language, request);
    return editor.document.uri;
  }

  const folder = targetFolder();
  if (!folder) throw new Error("HookLens: open a workspace folder to create a hook file.");
  const uri = hookFileUri(folder.uri, request.name);
  const relative = vscode.workspace.asRelativePath(uri, false);
  if (await exists(uri)) {
    if (scripted && !request.overwrite) throw new Error(`HookLens: ${relative} already exists; pass "overwrite": true to replace it.`);
    if (!scripted && !(await confirmOverwrite(relative))) return undefined;
  }
  const editor = await writeHookFile(uri, request);
  return editor.document.uri;
}

function parsedOrThrow(args: unknown): ScaffoldArgs {
  const parsed = parseScaffoldArgs(args);
  if (!parsed.ok) throw new Error(`HookLens: invalid arguments for ${NEW_HOOK_COMMAND}: ${parsed.error}`);
  return parsed.args;
}

async function ask(): Promise<ScaffoldArgs | undefined> {
  const options = await askTemplateOptions();
  if (!options) return undefined;
  const target = await askTarget(options.name, editorLanguage(vscode.window.activeTextEditor) !== undefined);
  return target && { ...options, target, overwrite: false };
}

/** The folder of the active file when it belongs to one, else the first folder. */
function targetFolder(): vscode.WorkspaceFolder | undefined {
  const active = vscode.window.activeTextEditor?.document.uri;
  return (active && vscode.workspace.getWorkspaceFolder(active)) || vscode.workspace.workspaceFolders?.[0];
}
