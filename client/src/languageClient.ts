import * as vscode from "vscode";
import { SERVER_NODE_FLAGS } from "../../server/src/launchOptions.js";
import { LanguageClient, State, TransportKind, type LanguageClientOptions, type ServerOptions } from "vscode-languageclient/node";
import { registerRuleDocumentationCommand, ruleDocumentationFeature } from "./lsp/ruleDocumentation.js";

const LANGUAGES = ["typescript", "typescriptreact", "javascript", "javascriptreact"];
const STATE_NAMES: Record<State, string> = {
  [State.Starting]: "starting",
  [State.Running]: "running",
  [State.Stopped]: "stopped",
  [State.StartFailed]: "failed to start",
};

/**
 * Starts the bundled language server (dist/server.js) for TypeScript and JavaScript files. The
 * server reads the `hooklens.*` settings itself (workspace/configuration); `hooklens.trace.server`
 * is read by the client library, which knows the client by its id "hooklens".
 */
export async function startLanguageClient(context: vscode.ExtensionContext, outputChannel?: vscode.LogOutputChannel): Promise<LanguageClient> {
  const module = context.asAbsolutePath("dist/server.js");
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc, options: { execArgv: [...SERVER_NODE_FLAGS] } },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: [...SERVER_NODE_FLAGS, "--nolazy", "--inspect=6019"] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: LANGUAGES.flatMap((language) => [
      { scheme: "file", language },
      { scheme: "untitled", language },
    ]),
    // One "HookLens" channel for the server's messages, its state and the live connections.
    ...(outputChannel ? { outputChannel } : {}),
  };
  const client = new LanguageClient("hooklens", "HookLens", serverOptions, clientOptions);
  if (outputChannel) {
    context.subscriptions.push(client.onDidChangeState(({ newState }) => outputChannel.info(`language server: ${STATE_NAMES[newState]}`)));
  }
  client.registerFeature(ruleDocumentationFeature);
  context.subscriptions.push(registerRuleDocumentationCommand(vscode.Uri.joinPath(context.extensionUri, "docs", "rules")));
  await client.start();
  return client;
}
