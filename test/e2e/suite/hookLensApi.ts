import * as vscode from "vscode";
import type { HookLensApi } from "../../../client/src/extension.js";
import type { LiveRun } from "../../../client/src/signals/signalStore.js";
import { waitFor } from "./waitFor.js";

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

/** Runs `node <script>` from the workspace in a new integrated terminal; resolves with its run once it said bye. */
export async function runInTerminal(api: HookLensApi, script: string, timeoutMs?: number): Promise<LiveRun> {
  const terminal = vscode.window.createTerminal({ name: `hooklens ${script}`, cwd: workspaceFolder().uri });
  try {
    terminal.sendText(`node ${script}`);
    return await waitFor(
      (listener) => api.signals.onDidChange(listener),
      () => api.signals.runs().find((r) => r.title === script && !r.connected),
      `${script} to stream its signals and say bye`,
      timeoutMs,
    );
  } finally {
    terminal.dispose();
  }
}
