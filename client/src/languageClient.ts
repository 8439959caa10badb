import * as vscode from "vscode";
import { SERVER_NODE_FLAGS } from "../../server/src/launchOptions.js";
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from "vscode-languageclient/node";
import { registerRuleDocumentationCommand, ruleDocumentationFeature } from "./lsp/ruleDocumentation.js";

const LANGUAGES = ["typescript", "typescriptreact", "javascript", "javascriptreact"];

/**
 * Starts the bundled language server (dist/server.js) for TypeScript and JavaScript files. The
 * server reads the `hooklens.*` settings itself (workspace/configuration); `hooklens.trace.server`
 * is read by the client library, which knows the client by its id "hooklens".
 */
export async function startLanguageClient(context: vscode.ExtensionContext): Promise<LanguageClient> {
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
  };
  const client = new LanguageClient("hooklens", "HookLens", serverOptions, clientOptions);
  client.registerFeature(ruleDocumentationFeature);
  context.subscriptions.push(registerRuleDocumentationCommand());
  await client.start();
  return client;
}
