import { TextDocument } from "vscode-languageserver-textdocument";
import {
  CodeActionKind,
  DocumentDiagnosticReportKind,
  ProposedFeatures,
  TextDocumentSyncKind,
  TextDocuments,
  createConnection,
  type DocumentDiagnosticReport,
} from "vscode-languageserver/node";
import { docsUrlResolver } from "./docsLinks.js";
import { quickFixes } from "./lsp/codeActions.js";
import { registerBenchProbe } from "./lsp/benchProbe.js";
import { toDiagnostic } from "./lsp/convert.js";
import { hoverAt } from "./lsp/hover.js";
import { Workspace } from "./lsp/workspace.js";

// Wiring only: every handler delegates to Workspace (analysis + cache) and the lsp/ converters.
const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);
const workspace = new Workspace();
const docsUrl = docsUrlResolver(__dirname);
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

// A bug in the analyzer must never take the editor's diagnostics down with it.
process.on("uncaughtException", (error) => connection.console.error(`HookLens: uncaught ${error.stack ?? String(error)}`));
process.on("unhandledRejection", (reason) => connection.console.error(`HookLens: unhandled rejection ${String(reason)}`));

connection.onInitialize((params) => {
  workspace.setFolders((params.workspaceFolders ?? []).map((f) => f.uri).concat(params.rootUri ? [params.rootUri] : []));
  return {
    capabilities: {
      textDocumentSync: TextDocumentSyncKind.Incremental,
      diagnosticProvider: { identifier: "hooklens", interFileDependencies: true, workspaceDiagnostics: false },
      hoverProvider: true,
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
    },
    serverInfo: { name: "hooklens" },
  };
});

connection.languages.diagnostics.on(async (params, token): Promise<DocumentDiagnosticReport> => {
  // Let queued edits and cancellations arrive before doing any work for a stale version.
  await yieldToEventLoop();
  const document = documents.get(params.textDocument.uri);
  if (!document || token.isCancellationRequested) return { kind: DocumentDiagnosticReportKind.Full, items: [] };
  try {
    const { result, lineStarts } = workspace.analyze(document.uri, document.version, document.getText(), () => token.isCancellationRequested);
    for (const failure of result.failures) connection.console.error(`HookLens: rule ${failure.code} failed on ${document.uri}: ${String(failure.error)}`);
    return { kind: DocumentDiagnosticReportKind.Full, items: result.findings.map((f) => toDiagnostic(f, lineStarts, docsUrl)) };
  } catch (error) {
    connection.console.error(`HookLens: analysis of ${document.uri} failed: ${error instanceof Error ? error.stack : String(error)}`);
    return { kind: DocumentDiagnosticReportKind.Full, items: [] };
  }
});

connection.onHover((params) => {
  const document = documents.get(params.textDocument.uri);
  const cached = document && workspace.cached(document.uri, document.version);
  if (!document || !cached) return null;
  return hoverAt(cached.result.findings, document.offsetAt(params.position), cached.lineStarts, docsUrl);
});

connection.onCodeAction((params, token) => {
  const document = documents.get(params.textDocument.uri);
  if (!document) return [];
  try {
    const { result, lineStarts } = workspace.analyze(document.uri, document.version, document.getText(), () => token.isCancellationRequested);
    return quickFixes(document, result.findings, params.range, lineStarts, docsUrl);
  } catch (error) {
    connection.console.error(`HookLens: code actions for ${document.uri} failed: ${error instanceof Error ? error.stack : String(error)}`);
    return [];
  }
});

documents.onDidClose((event) => workspace.close(event.document.uri));
registerBenchProbe(connection);
documents.listen(connection);
connection.listen();
