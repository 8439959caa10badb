import * as vscode from "vscode";
import type { HookLensApi } from "../../../client/src/extension.js";

/** Activates the extension under test and returns its API. */
export async function hookLens(): Promise<HookLensApi> {
  const extension = vscode.extensions.getExtension<HookLensApi>("hooklens.hooklens");
  if (!extension) throw new Error("extension hooklens.hooklens is not installed in the test host");
  return extension.activate();
}

export function workspaceFolder(): vscode.WorkspaceFolder {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error("the e2e run opens a workspace folder");
  return folder;
}
