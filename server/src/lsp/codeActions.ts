import { CodeActionKind, TextDocumentEdit, type CodeAction, type Range } from "vscode-languageserver";
import type { Finding } from "../analyzer/types.js";
import { rangeOf, toDiagnostic } from "./convert.js";

/**
 * Quick fixes for the findings that touch `range`. Each edit is pinned to the analysed document
 * version, so the client drops it if the text moved on in the meantime.
 */
export function quickFixes(
  document: { uri: string; version: number },
  findings: readonly Finding[],
  range: Range,
  lineStarts: readonly number[],
  docsUrl: (code: string) => string,
): CodeAction[] {
  const actions: CodeAction[] = [];
  for (const finding of findings) {
    if (!finding.fix || !overlaps(rangeOf(lineStarts, finding), range)) continue;
    const edits = finding.fix.edits.map((edit) => ({ range: rangeOf(lineStarts, edit), newText: edit.newText }));
    actions.push({
      title: finding.fix.title,
      kind: CodeActionKind.QuickFix,
      isPreferred: true,
      diagnostics: [toDiagnostic(finding, lineStarts, docsUrl)],
      edit: { documentChanges: [TextDocumentEdit.create({ uri: document.uri, version: document.version }, edits)] },
    });
  }
  return actions;
}

function overlaps(a: Range, b: Range): boolean {
  const before = (x: Range["start"], y: Range["start"]) => x.line < y.line || (x.line === y.line && x.character <= y.character);
  return before(a.start, b.end) && before(b.start, a.end);
}
