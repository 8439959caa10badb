import * as vscode from "vscode";
import type { LanguageClient } from "vscode-languageclient/node";

export const RESTART_SERVER_COMMAND = "hooklens.server.restart";

/** "HookLens: Restart Server": restarts the language server (its state changes go to the output channel). */
export function registerRestartServerCommand(client: LanguageClient, log: vscode.LogOutputChannel): vscode.Disposable {
  return vscode.commands.registerCommand(RESTART_SERVER_COMMAND, async () => {
    log.info("language server: restart requested");
    try {
      await client.restart();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log.error(`language server: restart failed: ${message}`);
      void vscode.window.showErrorMessage(`HookLens: the language server did not restart: ${message}`, "Show Output").then((choice) => {
        if (choice) log.show();
      });
    }
  });
}
