import * as vscode from "vscode";
import type { StaticFeature } from "vscode-languageclient/node";
import { CLIENT_SHOWS_RULE_DOCUMENTATION, SHOW_RULE_DOCUMENTATION_COMMAND } from "../../../server/src/lsp/clientContract.js";

/**
 * "Show documentation for HLnnn" runs here, in the extension: the rule's page (shipped in
 * docs/rules/) opens in the Markdown preview, which is read-only; a web address opens in the browser.
 */
export function registerRuleDocumentationCommand(): vscode.Disposable {
  return vscode.commands.registerCommand(SHOW_RULE_DOCUMENTATION_COMMAND, async (_code: unknown, url: unknown) => {
    if (typeof url !== "string") return;
    const uri = vscode.Uri.parse(url);
    if (uri.scheme === "file") await vscode.commands.executeCommand("markdown.showPreview", uri);
    else await vscode.env.openExternal(uri);
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
