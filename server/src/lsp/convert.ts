import { pathToFileURL } from "node:url";
import { DiagnosticSeverity, type Diagnostic, type DiagnosticRelatedInformation, type Position, type Range } from "vscode-languageserver";
import type { Finding, RelatedPlace, Severity } from "../analyzer/index.js";

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

/** Offset → LSP position (UTF-16 code units, as both TypeScript and LSP count them). */
export function positionAt(lineStarts: readonly number[], offset: number): Position {
  let low = 0;
  let high = lineStarts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (lineStarts[mid]! <= offset) low = mid;
    else high = mid - 1;
  }
  return { line: low, character: offset - lineStarts[low]! };
}

export function rangeOf(lineStarts: readonly number[], finding: Pick<Finding, "start" | "end">): Range {
  return { start: positionAt(lineStarts, finding.start), end: positionAt(lineStarts, finding.end) };
}

export function toDiagnostic(finding: Finding, lineStarts: readonly number[], docsUrl: (code: string) => string): Diagnostic {
  return {
    range: rangeOf(lineStarts, finding),
    severity: SEVERITY[finding.severity],
    code: finding.code,
    codeDescription: { href: docsUrl(finding.code) },
    source: "hooklens",
    message: finding.message,
    ...(finding.related ? { relatedInformation: [relatedInformationOf(finding.related)] } : {}),
  };
}

/** The other file's place, as an editor links it under the diagnostic. */
function relatedInformationOf(related: RelatedPlace): DiagnosticRelatedInformation {
  const at = { line: related.line, character: related.character };
  return { location: { uri: pathToFileURL(related.file).href, range: { start: at, end: at } }, message: related.message };
}
