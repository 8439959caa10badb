import * as vscode from "vscode";
import type { StaticFeature } from "vscode-languageclient/node";
import { CLIENT_SHOWS_RULE_DOCUMENTATION, SHOW_RULE_DOCUMENTATION_COMMAND } from "../../../server/src/lsp/clientContract.js";

/**
 * "Show documentation for HLnnn" runs here, in the extension: the rule's page (shipped in
 * docs/rules/) opens in the Markdown preview, which is read-only; a web address opens in the browser.
 */
export function registerRuleDocumentationCommand(rulePages: vscode.Uri): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.commands.registerCommand(SHOW_RULE_DOCUMENTATION_COMMAND, async (_code: unknown, url: unknown) => {
      if (typeof url !== "string") return;
      const uri = vscode.Uri.parse(url);
      if (uri.scheme === "file") await vscode.commands.executeCommand("markdown.showPreview", uri);
      else await vscode.env.openExternal(uri);
    }),
    renderRulePages(rulePages),
  );
}

/**
 * A rule code in the Problems panel links to its page in the extension's own `docs/rules/`, which
 * VS Code opens as an editable text file. Such a tab is swapped at once for the page's Markdown
 * preview (read-only, rendered), as the hover's link shows it: the extension's files are never
 * left open for editing.
 */
function renderRulePages(rulePages: vscode.Uri): vscode.Disposable {
  const folder = rulePages.fsPath.endsWith("/") ? rulePages.fsPath : `${rulePages.fsPath}/`;
  return vscode.window.tabGroups.onDidChangeTabs(async ({ opened, changed }) => {
    for (const tab of [...opened, ...changed]) {
      const input = tab.input;
      if (!(input instanceof vscode.TabInputText) || input.uri.scheme !== "file" || !input.uri.fsPath.startsWith(folder)) continue;
      // A tab already closed (a second event for it) cannot be closed again.
      if (!(await vscode.window.tabGroups.close(tab).then(undefined, () => false))) continue;
      await vscode.commands.executeCommand("markdown.showPreview", input.uri);
    }
  });
}

/** Tells the server, in `initialize`, that this client runs the command itself. */
export const ruleDocumentationFeature: StaticFeature = {
  fillClientCapabilities(capabilities) {
    capabilities.experimental = { ...(capabilities.experimental as object | undefined), [CLIENT_SHOWS_RULE_DOCUMENTATION]: true };
  },
  initialize() {},
  getState: () => ({ kind: "static" }),
  clear() {},
};
