import { DocumentDiagnosticReportKind, type Diagnostic, type DocumentDiagnosticReport } from "vscode-languageserver";
import type { TextDocument } from "vscode-languageserver-textdocument";
import type { Settings } from "../config/ruleSettings.js";
import type { DocumentAnalyses } from "./documentAnalyses.js";

/**
 * Answers textDocument/diagnostic for clients that pull. With `run: "onSave"`, a version that was
 * not saved is not analysed: the client keeps what it shows (an "unchanged" report) until the
 * next save, after which the server asks it to pull again.
 */
export class PullDiagnostics {
  readonly #analyses: DocumentAnalyses;
  readonly #settingsFor: (uri: string) => Promise<Settings>;
  readonly #savedVersions = new Map<string, number>();
  readonly #lastReports = new Map<string, { resultId: string; items: Diagnostic[] }>();
  #nextResultId = 1;

  constructor(analyses: DocumentAnalyses, settingsFor: (uri: string) => Promise<Settings>) {
    this.#analyses = analyses;
    this.#settingsFor = settingsFor;
  }

  /** Opened or saved: this version matches the file on disk. */
  saved(document: TextDocument): void {
    this.#savedVersions.set(document.uri, document.version);
  }

  closed(uri: string): void {
    this.#savedVersions.delete(uri);
    this.#lastReports.delete(uri);
  }

  async report(document: TextDocument, previousResultId: string | undefined, isCancelled: () => boolean): Promise<DocumentDiagnosticReport> {
    const last = this.#lastReports.get(document.uri);
    const settings = await this.#settingsFor(document.uri);
    if (settings.enable && settings.run === "onSave" && this.#savedVersions.get(document.uri) !== document.version && last) {
      return previousResultId === last.resultId
        ? { kind: DocumentDiagnosticReportKind.Unchanged, resultId: last.resultId }
        : { kind: DocumentDiagnosticReportKind.Full, resultId: last.resultId, items: last.items };
    }
    const items = this.#analyses.diagnostics(await this.#analyses.analyse(document, isCancelled));
    if (isCancelled()) return { kind: DocumentDiagnosticReportKind.Full, items };
    const resultId = String(this.#nextResultId++);
    this.#lastReports.set(document.uri, { resultId, items });
    return { kind: DocumentDiagnosticReportKind.Full, resultId, items };
  }
}
