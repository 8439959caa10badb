import {
  CodeActionKind,
  TextDocumentSyncKind,
  type ClientCapabilities,
  type ServerCapabilities,
} from "vscode-languageserver";
import { CLIENT_SHOWS_RULE_DOCUMENTATION, SHOW_RULE_DOCUMENTATION_COMMAND } from "./clientContract.js";

/** What the connected client can do, read once from `initialize`. */
export interface ClientFeatures {
  /** The client pulls diagnostics (textDocument/diagnostic); otherwise the server publishes them. */
  pullDiagnostics: boolean;
  /** The client can be asked to pull again (workspace/diagnostic/refresh). */
  diagnosticRefresh: boolean;
  /** The client answers workspace/configuration. */
  configurationRequests: boolean;
  /** The client accepts a dynamic registration for workspace/didChangeConfiguration. */
  configurationChangeRegistration: boolean;
  /** The client accepts a dynamic registration for workspace/didChangeWatchedFiles. */
  watchedFilesRegistration: boolean;
  /** Who opens a rule's documentation: the client itself, the server through window/showDocument, or nobody. */
  ruleDocumentation: "client" | "server" | "none";
}

export function clientFeatures(capabilities: ClientCapabilities): ClientFeatures {
  const experimental = capabilities.experimental as Record<string, unknown> | undefined;
  return {
    pullDiagnostics: capabilities.textDocument?.diagnostic !== undefined,
    diagnosticRefresh: capabilities.workspace?.diagnostics?.refreshSupport === true,
    configurationRequests: capabilities.workspace?.configuration === true,
    configurationChangeRegistration: capabilities.workspace?.didChangeConfiguration?.dynamicRegistration === true,
    watchedFilesRegistration: capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true,
    ruleDocumentation:
      experimental?.[CLIENT_SHOWS_RULE_DOCUMENTATION] === true ? "client" : capabilities.window?.showDocument?.support === true ? "server" : "none",
  };
}

/** The server's answer to `initialize`, shaped by what the client can do. */
export function serverCapabilities(features: ClientFeatures): ServerCapabilities {
  return {
    textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
    // Only offered to clients that pull; the others get textDocument/publishDiagnostics.
    ...(features.pullDiagnostics ? { diagnosticProvider: { identifier: "hooklens", interFileDependencies: true, workspaceDiagnostics: false } } : {}),
    hoverProvider: true,
    codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
    ...(features.ruleDocumentation === "server" ? { executeCommandProvider: { commands: [SHOW_RULE_DOCUMENTATION_COMMAND] } } : {}),
  };
}
