import { ts } from "ts-morph";
import type { Finding } from "./types.js";

/**
 * ESLint-style comments that silence findings, in either comment form:
 *
 *   // hooklens-disable-next-line HL001, HL003 -- reason    the line after the comment
 *   // hooklens-disable-line HL001                          the comment's own line
 *   /* hooklens-disable HL004 *\/                            from the comment on (to the end of the file,
 *   /* hooklens-enable HL004 *\/                             or until an enable naming the code)
 *
 * No codes means every code. As in ESLint, a disable comment is not file-wide by itself: it applies
 * from where it stands, so a file-wide one goes on the first line. A finding counts as on the line
 * where it starts.
 */
export interface SuppressionDirective {
  kind: "disable-next-line" | "disable-line" | "disable" | "enable";
  /** Rule codes named by the comment; empty means every code. */
  codes: string[];
  /** The comment's range in the text. */
  start: number;
  end: number;
}

const DIRECTIVE = /^hooklens-(disable-next-line|disable-line|disable|enable)(?=\s|$)(.*)$/s;
const CANDIDATE = /hooklens-(?:disable|enable)/g;

/** Every suppression comment of a file. Costs one string search when the file has none. */
export function findSuppressionDirectives(sourceFile: ts.SourceFile): SuppressionDirective[] {
  const text = sourceFile.text;
  const directives: SuppressionDirective[] = [];
  const seen = new Set<number>();
  for (const match of text.matchAll(CANDIDATE)) {
    const comment = commentAt(sourceFile, match.index);
    if (!comment || seen.has(comment.pos)) continue;
    seen.add(comment.pos);
    const directive = parseDirective(text, comment);
    if (directive) directives.push(directive);
  }
  return directives;
}

/**
 * Reads one comment as a directive: the directive word must open the comment, codes follow
 * (separated by commas or spaces), and anything after ` -- ` is a reason for readers.
 */
export function parseDirective(text: string, comment: ts.CommentRange): SuppressionDirective | undefined {
  const raw = text.slice(comment.pos, comment.end);
  const body = comment.kind === ts.SyntaxKind.SingleLineCommentTrivia ? raw.slice(2) : raw.slice(2, -2).replace(/^\*/, "");
  const match = DIRECTIVE.exec(body.trim());
  if (!match) return undefined;
  const codeList = match[2]!.split(/(?:^|\s)--(?:\s|$)/)[0]!;
  const codes = codeList.split(/[\s,]+/).filter((code) => code.length > 0);
  return { kind: match[1] as SuppressionDirective["kind"], codes, start: comment.pos, end: comment.end };
}

/** The findings that no hooklens-disable comment of the file silences. */
export function removeSuppressed<F extends Pick<Finding, "code" | "start">>(findings: readonly F[], sourceFile: ts.SourceFile): F[] {
  if (findings.length === 0) return [];
  return withoutSuppressed(findings, findSuppressionDirectives(sourceFile), (offset) => sourceFile.getLineAndCharacterOfPosition(offset).line);
}

/** The findings that none of `directives` silences. */
export function withoutSuppressed<F extends Pick<Finding, "code" | "start">>(
  findings: readonly F[],
  directives: readonly SuppressionDirective[],
  lineOf: (offset: number) => number,
): F[] {
  if (directives.length === 0) return [...findings];
  const lineDirectives = directives
    .filter((d) => d.kind === "disable-next-line" || d.kind === "disable-line")
    .map((d) => ({ codes: d.codes, line: d.kind === "disable-line" ? lineOf(d.start) : lineOf(d.end) + 1 }));
  const blockDirectives = directives.filter((d) => d.kind === "disable" || d.kind === "enable").sort((a, b) => a.start - b.start);
  return findings.filter((finding) => {
    const line = lineOf(finding.start);
    if (lineDirectives.some((d) => d.line === line && names(d.codes, finding.code))) return false;
    // The last block directive before the finding that concerns its code decides.
    let disabled = false;
    for (const directive of blockDirectives) {
      if (directive.start > finding.start) break;
      if (names(directive.codes, finding.code)) disabled = directive.kind === "disable";
    }
    return !disabled;
  });
}

function names(codes: readonly string[], code: string): boolean {
  return codes.length === 0 || codes.includes(code);
}

/**
 * The comment containing `offset`, if any. Comments are trivia, so the offset lies in a comment
 * exactly when it precedes the start of the token whose leading trivia holds it; a match inside a
 * string or template literal is inside its token and is rejected.
 */
function commentAt(sourceFile: ts.SourceFile, offset: number): ts.CommentRange | undefined {
  let node: ts.Node = sourceFile;
  for (;;) {
    const child: ts.Node | undefined = node.getChildren(sourceFile).find((c) => c.pos <= offset && offset < c.end);
    if (!child) return undefined;
    // A /** … */ comment before a declaration is parsed as that declaration's JSDoc child.
    if (ts.isJSDoc(child)) return { pos: child.pos, end: child.end, kind: ts.SyntaxKind.MultiLineCommentTrivia };
    if (offset < child.getStart(sourceFile)) {
      // Comments before the first line break are the previous token's trailing ones.
      const text = sourceFile.text;
      const comments = [...(ts.getTrailingCommentRanges(text, child.pos) ?? []), ...(ts.getLeadingCommentRanges(text, child.pos) ?? [])];
      return comments.find((c) => c.pos <= offset && offset < c.end);
    }
    node = child;
  }
}
