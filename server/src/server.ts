import { TextDocument } from "vscode-languageserver-textdocument";
import {
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  ProposedFeatures,
  TextDocuments,
  createConnection,
} from "vscode-languageserver/node";
import { firstWorkDone } from "./compileCache.js";
import { docsUrlResolver } from "./docsLinks.js";
import { savedImportLists, savedReferenceLists } from "./importListFile.js";
import { registerBenchProbe } from "./lsp/benchProbe.js";
import { clientFeatures, serverCapabilities, type ClientFeatures } from "./lsp/capabilities.js";
import { SHOW_RULE_DOCUMENTATION_COMMAND } from "./lsp/clientContract.js";
import { codeActions } from "./lsp/codeActions.js";
import { DocumentAnalyses } from "./lsp/documentAnalyses.js";
import { hoverAt } from "./lsp/hover.js";
import { withLoadingProgress } from "./lsp/loadingProgress.js";
import { PullDiagnostics } from "./lsp/pullDiagnostics.js";
import { PushDiagnostics } from "./lsp/pushDiagnostics.js";
import { SETTINGS_SECTION, SettingsStore } from "./lsp/settings.js";
import { WATCHERS, applyFileChanges } from "./lsp/watchedFiles.js";
import { Workspace } from "./lsp/workspace.js";
import { SERVER_VERSION } from "./version.js";

// Wiring only: handlers delegate to the lsp/ modules. Clients that do not pull diagnostics also get
// them published (PushDiagnostics); pull, push, hovers and code actions read the same
// per-(uri, version, text) analyses.
const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);
const workspace = new Workspace({ importListsFor: savedImportLists, referenceListsFor: savedReferenceLists });
const docsUrl = docsUrlResolver(__dirname);
const log = (message: string) => connection.console.warn(message);
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
/** Quiet time after a keystroke before a pushed analysis. */
const PUSH_DELAY_MS = 250;

let features: ClientFeatures;
let settings: SettingsStore;
let analyses: DocumentAnalyses;
let pull: PullDiagnostics;
let push: PushDiagnostics | undefined;

// A bug in the analyzer must never take the editor's diagnostics down with it.
process.on("uncaughtException", (error) => connection.console.error(`HookLens: uncaught ${error.stack ?? String(error)}`));
process.on("unhandledRejection", (reason) => connection.console.error(`HookLens: unhandled rejection ${String(reason)}`));

connection.onInitialize((params) => {
  workspace.setFolders((params.workspaceFolders ?? []).map((f) => f.uri).concat(params.rootUri ? [params.rootUri] : []));
  features = clientFeatures(params.capabilities);
  settings = new SettingsStore({
    initializationOptions: params.initializationOptions,
    fetch: features.configurationRequests ? (scopeUri) => connection.workspace.getConfiguration({ scopeUri, section: SETTINGS_SECTION }) : undefined,
    // A setting ignored is something the user set and does not get: shown once, not only logged.
    log: (message) => {
      log(message);
      void connection.window.showWarningMessage(message);
    },
  });
  analyses = new DocumentAnalyses({ workspace, settings, docsUrl, log, withProgress: loadingThenCache });
  // An explicit textDocument/diagnostic request is answered from any client; only clients that do not
  // declare pull diagnostics are also sent textDocument/publishDiagnostics.
  pull = new PullDiagnostics(analyses, (uri) => settings.forDocument(uri));
  if (!features.pullDiagnostics) push = new PushDiagnostics({ compute: computeForPush, publish: (uri, version, diagnostics) => void connection.sendDiagnostics({ uri, version, diagnostics }), delayMs: PUSH_DELAY_MS });
  return { capabilities: serverCapabilities(features), serverInfo: { name: "hooklens", version: SERVER_VERSION } };
});

connection.onInitialized(() => {
  if (features.configurationChangeRegistration) void connection.client.register(DidChangeConfigurationNotification.type, { section: SETTINGS_SECTION });
  if (features.watchedFilesRegistration) void connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: WATCHERS });
});

/** Progress around the first load of a program; after it, the code it compiled is worth caching for the next start. */
async function loadingThenCache<T>(loading: boolean, work: () => T): Promise<T> {
  const result = await withLoadingProgress(connection, loading, work);
  if (loading) firstWorkDone();
  return result;
}

async function computeForPush(uri: string) {
  const document = documents.get(uri);
  if (!document) return undefined;
  const superseded = () => documents.get(uri)?.version !== document.version;
  const analysis = await analyses.analyse(document, superseded);
  return superseded() ? undefined : { version: document.version, diagnostics: analyses.diagnostics(analysis) };
}

/** Settings or files on disk changed: every open document is analysed again. */
function revalidateAll(): void {
  if (push) for (const document of documents.all()) push.schedule(document.uri, 0);
  else if (features.diagnosticRefresh) void connection.languages.diagnostics.refresh();
}

connection.languages.diagnostics.on(async (params, token) => {
  // Let queued edits and cancellations arrive before doing any work for a stale version.
  await yieldToEventLoop();
  const document = documents.get(params.textDocument.uri);
  if (!document) return { kind: "full", items: [] };
  return pull.report(document, params.previousResultId, () => token.isCancellationRequested);
});

// TextDocuments fires onDidChangeContent right after onDidOpen; an opened document is analysed at once.
const opening = new Set<string>();
documents.onDidOpen(({ document }) => {
  pull.saved(document);
  opening.add(document.uri);
});
documents.onDidChangeContent(({ document }) => {
  if (opening.delete(document.uri)) return push?.schedule(document.uri, 0);
  if (push) void settings.forDocument(document.uri).then((s) => s.run === "onType" && push?.schedule(document.uri));
});
documents.onDidSave(({ document }) => {
  pull.saved(document);
  push?.schedule(document.uri, 0);
  if (!push && features.diagnosticRefresh) void connection.languages.diagnostics.refresh();
});
documents.onDidClose(({ document }) => {
  workspace.close(document.uri);
  settings.forget(document.uri);
  pull.closed(document.uri);
  push?.clear(document.uri);
});

connection.onDidChangeConfiguration((params) => {
  settings.changed(params.settings);
  revalidateAll();
});
connection.onDidChangeWatchedFiles((params) => {
  if (applyFileChanges(workspace, params.changes, (uri) => documents.get(uri) !== undefined)) revalidateAll();
});

connection.onHover(async (params) => {
  const document = documents.get(params.textDocument.uri);
  const cached = document && (await analyses.cached(document));
  if (!document || !cached) return null;
  return hoverAt(analyses.findings(cached), document.offsetAt(params.position), cached.analysis.lineStarts, docsUrl);
});

connection.onCodeAction(async (params, token) => {
  const document = documents.get(params.textDocument.uri);
  if (!document || (params.context.only && !params.context.only.some((kind) => "quickfix".startsWith(kind)))) return [];
  try {
    const current = await analyses.analyse(document, () => token.isCancellationRequested);
    if (!current.analysis) return [];
    return codeActions({
      document: { uri: document.uri, version: current.analysis.version },
      text: current.analysis.text,
      lineStarts: current.analysis.lineStarts,
      findings: analyses.findings(current),
      range: params.range,
      docsUrl,
      canShowDocumentation: features.ruleDocumentation !== "none",
    });
  } catch (error) {
    connection.console.error(`HookLens: code actions for ${document.uri} failed: ${error instanceof Error ? error.stack : String(error)}`);
    return [];
  }
});

connection.onExecuteCommand(async (params) => {
  const [, url] = params.arguments ?? [];
  if (params.command !== SHOW_RULE_DOCUMENTATION_COMMAND || typeof url !== "string") return;
  await connection.window.showDocument({ uri: url, external: !url.startsWith("file:"), takeFocus: true });
});

registerBenchProbe(connection, () => workspace.analysisCount);
documents.listen(connection);
connection.listen();
