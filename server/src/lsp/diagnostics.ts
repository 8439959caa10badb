import { DiagnosticSeverity, type Diagnostic } from "vscode-languageserver";
import type { AnalysisNotice, AnalysisResult } from "../analyzer/index.js";
import type { Finding } from "../analyzer/index.js";
import { applyRuleLevels, type Settings } from "../config/ruleSettings.js";
import { rangeOf, toDiagnostic } from "./convert.js";

/** The findings the user wants to see: none when disabled, rules set to "off" dropped, levels applied. */
export function visibleFindings(result: AnalysisResult, settings: Settings): Finding[] {
  return settings.enable ? applyRuleLevels(result.findings, settings.rules) : [];
}

/**
 * Everything the editor shows for one analysis: a diagnostic per visible finding, and one
 * information diagnostic when the file was not fully analysed, so "could not look" never reads as
 * "no problems".
 */
export function diagnosticsFor(
  analysis: { result: AnalysisResult; lineStarts: readonly number[]; text: string },
  settings: Settings,
  docsUrl: (code: string) => string,
): Diagnostic[] {
  if (!settings.enable) return [];
  const diagnostics = visibleFindings(analysis.result, settings).map((finding) => toDiagnostic(finding, analysis.lineStarts, docsUrl));
  const notice = noticeDiagnostic(analysis.result.notices, analysis.lineStarts, analysis.text);
  return notice ? [notice, ...diagnostics] : diagnostics;
}

/**
 * All notices of a file as one information diagnostic: on what the first located notice is about
 * (the runtime import, the first syntax error), else on the first line.
 */
export function noticeDiagnostic(notices: readonly AnalysisNotice[], lineStarts: readonly number[], text: string): Diagnostic | undefined {
  if (notices.length === 0) return undefined;
  const located = notices.find((n) => n.end > n.start);
  const firstLineEnd = lineStarts.length > 1 ? lineStarts[1]! - 1 : text.length;
  const range = located ? rangeOf(lineStarts, located) : rangeOf(lineStarts, { start: 0, end: firstLineEnd });
  const message = notices.length === 1 ? notices[0]!.message : notices.map((n) => `• ${n.message}`).join("\n");
  return { range, severity: DiagnosticSeverity.Information, source: "hooklens", message };
}
