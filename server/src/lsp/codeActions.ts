import { CodeActionKind, TextDocumentEdit, type CodeAction, type Range } from "vscode-languageserver";
import type { Finding } from "../analyzer/index.js";
import { SHOW_RULE_DOCUMENTATION_COMMAND } from "./clientContract.js";
import { positionAt, rangeOf, toDiagnostic } from "./convert.js";
import { disableForFileEdit, disableForLineEdit, type OffsetEdit } from "./suppressionEdits.js";

export interface CodeActionInput {
  document: { uri: string; version: number };
  /** The analysed text and its line starts (the cached analysis of this version). */
  text: string;
  lineStarts: readonly number[];
  /** The findings the user sees (rule levels applied). */
  findings: readonly Finding[];
  range: Range;
  docsUrl: (code: string) => string;
  /** Whether "Show documentation" can be offered (someone handles its command). */
  canShowDocumentation: boolean;
}

/**
 * The code actions for the findings that touch `range`, as ESLint users know them: the finding's
 * quick fix when there is a certain one (preferred), then "Disable … for this line", "… for this
 * file" and "Show documentation for …", once per code. Every edit is pinned to the analysed
 * document version, so the client drops it if the text moved on in the meantime.
 */
export function codeActions(input: CodeActionInput): CodeAction[] {
  const { document, text, lineStarts, range, docsUrl } = input;
  const here = input.findings.filter((finding) => overlaps(rangeOf(lineStarts, finding), range));
  const edit = (edits: readonly OffsetEdit[]) => ({
    documentChanges: [TextDocumentEdit.create(document, edits.map((e) => ({ range: rangeOf(lineStarts, e), newText: e.newText })))],
  });
  const diagnostic = (finding: Finding) => toDiagnostic(finding, lineStarts, docsUrl);

  const fixes: CodeAction[] = here
    .filter((finding) => finding.fix)
    .map((finding) => ({ title: finding.fix!.title, kind: CodeActionKind.QuickFix, isPreferred: true, diagnostics: [diagnostic(finding)], edit: edit(finding.fix!.edits) }));

  const others: CodeAction[] = [];
  const offered = new Set<string>();
  const once = (key: string): boolean => {
    if (offered.has(key)) return false;
    offered.add(key);
    return true;
  };
  for (const finding of here) {
    const { code } = finding;
    const line = positionAt(lineStarts, finding.start).line;
    if (once(`line:${code}:${line}`)) {
      others.push({ title: `Disable ${code} for this line`, kind: CodeActionKind.QuickFix, diagnostics: [diagnostic(finding)], edit: edit([disableForLineEdit(text, lineStarts, finding.start, code)]) });
    }
    if (once(`file:${code}`)) {
      others.push({ title: `Disable ${code} for this file`, kind: CodeActionKind.QuickFix, diagnostics: [diagnostic(finding)], edit: edit([disableForFileEdit(text, lineStarts, code)]) });
    }
    if (input.canShowDocumentation && once(`docs:${code}`)) {
      const title = `Show documentation for ${code}`;
      others.push({ title, kind: CodeActionKind.QuickFix, diagnostics: [diagnostic(finding)], command: { title, command: SHOW_RULE_DOCUMENTATION_COMMAND, arguments: [code, docsUrl(code)] } });
    }
  }
  // Disable actions of one code sit together, as in ESLint's list; fixes come first.
  return [...fixes, ...others.sort((a, b) => codeOf(a).localeCompare(codeOf(b)))];
}

function codeOf(action: CodeAction): string {
  return String(action.diagnostics?.[0]?.code ?? "");
}

function overlaps(a: Range, b: Range): boolean {
  const before = (x: Range["start"], y: Range["start"]) => x.line < y.line || (x.line === y.line && x.character <= y.character);
  return before(a.start, b.end) && before(b.start, a.end);
}
