import type { Diagnostic } from "vscode-languageserver";
import type { TextDocument } from "vscode-languageserver-textdocument";
import type { Finding } from "../analyzer/index.js";
import type { Settings } from "../config/ruleSettings.js";
import { diagnosticsFor, visibleFindings } from "./diagnostics.js";
import type { SettingsStore } from "./settings.js";
import type { CachedAnalysis, Workspace } from "./workspace.js";

type WithProgress = <T>(loading: boolean, work: () => T) => Promise<T>;

/** A document's analysis under the settings in force for it. */
export interface DocumentAnalysis {
  settings: Settings;
  /** Undefined when HookLens is disabled for the document. */
  analysis: CachedAnalysis | undefined;
}

/**
 * The one way every handler (pull, push, hover, code actions) gets a document's analysis: settings
 * first, then the workspace's per-(uri, version, text) cache, so no text is analysed twice.
 */
export class DocumentAnalyses {
  readonly #workspace: Workspace;
  readonly #settings: SettingsStore;
  readonly #docsUrl: (code: string) => string;
  readonly #log: (message: string) => void;
  readonly #reportedFailures = new Set<string>();
  readonly #withProgress: WithProgress;

  constructor(options: {
    workspace: Workspace;
    settings: SettingsStore;
    docsUrl: (code: string) => string;
    log: (message: string) => void;
    /** Shows progress around an analysis that first loads a program (`loading`); by default just runs it. */
    withProgress?: WithProgress;
  }) {
    this.#withProgress = options.withProgress ?? (async (_loading, work) => work());
    this.#workspace = options.workspace;
    this.#settings = options.settings;
    this.#docsUrl = options.docsUrl;
    this.#log = options.log;
  }

  /** Analyses the document's current text (or reuses the cached analysis of it). */
  async analyse(document: TextDocument, isCancelled: () => boolean): Promise<DocumentAnalysis> {
    const settings = await this.#settings.forDocument(document.uri);
    if (!settings.enable || isCancelled()) return { settings, analysis: undefined };
    const loading = this.#workspace.isColdLoad(document.uri, document.version, document.getText());
    const analysis = await this.#withProgress(loading, () => this.#workspace.analyze(document.uri, document.version, document.getText(), isCancelled));
    for (const failure of analysis.result.failures) {
      const detail = failure.error instanceof Error ? (failure.error.stack ?? failure.error.message) : String(failure.error);
      const key = `${failure.code}\n${detail}`;
      // A rule that fails while a line is half typed would otherwise fill the log on every keystroke.
      if (this.#reportedFailures.has(key)) continue;
      this.#reportedFailures.add(key);
      this.#log(`HookLens: rule ${failure.code} failed on ${document.uri} (its last findings are kept): ${detail}`);
    }
    return { settings, analysis };
  }

  /** The analysis of exactly this document version and text, if one was computed, without analysing. */
  async cached(document: TextDocument): Promise<{ settings: Settings; analysis: CachedAnalysis } | undefined> {
    const settings = await this.#settings.forDocument(document.uri);
    const analysis = this.#workspace.cached(document.uri, document.version, document.getText());
    return settings.enable && analysis ? { settings, analysis } : undefined;
  }

  diagnostics({ settings, analysis }: DocumentAnalysis): Diagnostic[] {
    return analysis ? diagnosticsFor(analysis, settings, this.#docsUrl) : [];
  }

  findings({ settings, analysis }: DocumentAnalysis): Finding[] {
    return analysis ? visibleFindings(analysis.result, settings) : [];
  }
}
