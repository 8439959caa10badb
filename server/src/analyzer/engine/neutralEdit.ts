import { ts, type SourceFile } from "ts-morph";
import type { AnalysisResult } from "./analyze.js";
import { syntaxErrorsNotice } from "./notices.js";
import { changedSpan } from "./textChange.js";
import { compilerFactoryOf } from "./tsMorphInternals.js";
import type { TextRange } from "./textReads.js";

/** An analysed version of a file, kept so that the next version can reuse its findings. */
export interface ReusableAnalysis {
  text: string;
  /**
   * The parse tree of `text`; undefined once the project re-parsed the file incrementally, which
   * moves this tree's nodes in place (it is then parsed again from `text` when needed).
   */
  tree: ts.SourceFile | undefined;
  result: AnalysisResult;
  /** Text the rules quoted (getText), and numeric literals they held as nodes: an edit touching these is never neutral. */
  reads: TextRange[];
}

/** `+ - * / % **` and the bitwise operators: their result's type never depends on a number operand's value. */
const ARITHMETIC = new Set([
  ts.SyntaxKind.PlusToken,
  ts.SyntaxKind.MinusToken,
  ts.SyntaxKind.AsteriskToken,
  ts.SyntaxKind.SlashToken,
  ts.SyntaxKind.PercentToken,
  ts.SyntaxKind.AsteriskAsteriskToken,
  ts.SyntaxKind.AmpersandToken,
  ts.SyntaxKind.BarToken,
  ts.SyntaxKind.CaretToken,
  ts.SyntaxKind.LessThanLessThanToken,
  ts.SyntaxKind.GreaterThanGreaterThanToken,
  ts.SyntaxKind.GreaterThanGreaterThanGreaterThanToken,
]);
const LINE_BREAK = /[\n\r\u2028\u2029]/;
const NUMBER = /^(?:(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:[eE][+-]?\d[\d_]*)?|0[xX][\da-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+)$/;

/**
 * The previous analysis with its positions moved, when `text` differs from `previous.text` by an
 * edit no finding can depend on; otherwise undefined (the caller analyses afresh). Two kinds of
 * edit qualify, both within one line:
 *
 * - inside one ordinary comment of a TypeScript file (not JSDoc, not `///`, no `@` pragma, no
 *   hooklens directive): comments carry no types there, and only suppression directives are read;
 * - inside one number that is an operand of an arithmetic operator (`counter + 1`): the
 *   expression's type is `number` (or string for `+`) whatever the value, so no type changes.
 *
 * Either way the tokens are the same but for that comment or number (checked on a fresh parse:
 * the same nodes at the same moved positions, no syntax errors), line numbers are unchanged, and
 * no rule read that text: none quoted a node around it (`reads`) or held the number as a node.
 * Findings, fixes and notices then come out the same, moved by the edit's length difference.
 */
export function reuseAfterNeutralEdit(previous: ReusableAnalysis, text: string, fileName: string, target: ts.ScriptTarget): ReusableAnalysis | undefined {
  const { result } = previous;
  if (!/\.[cm]?ts$/.test(fileName) || result.failures.length > 0 || result.notices.some((n) => n.kind !== "runtime-unresolved")) return undefined;
  const old = previous.text;
  const { start, oldEnd, newEnd } = changedSpan(old, text);
  const delta = text.length - old.length;
  if (LINE_BREAK.test(old.slice(start, oldEnd)) || LINE_BREAK.test(text.slice(start, newEnd))) return undefined;
  const before = previous.tree ?? ts.createSourceFile(fileName, old, target, false);
  const region = neutralRegion(before, start, oldEnd);
  if (!region) return undefined;
  const replaced = text.slice(region.start, region.end + delta);
  if (region.kind === "comment" ? !isPlainComment(replaced) : !NUMBER.test(replaced)) return undefined;
  if (previous.reads.some((read) => read.start <= region.end && region.start <= read.end)) return undefined;
  const move = (offset: number): number => (offset <= region.start ? offset : offset >= region.end ? offset + delta : Number.NaN);
  const tree = ts.createSourceFile(fileName, text, target, false);
  if (syntaxErrorsNotice(tree) || !sameShape(before, tree, move)) return undefined;
  const moved = movedResult(result, move);
  if (!moved) return undefined;
  return { text, tree, result: moved, reads: previous.reads.map((read) => ({ start: move(read.start), end: move(read.end) })) };
}

/** Numeric literals of `sourceFile` that a rule took as ts-morph nodes (and so may have read or typed). */
export function literalsRulesHeld(sourceFile: SourceFile): TextRange[] {
  const factory = compilerFactoryOf(sourceFile);
  const held = factory?.hasCompilerNode.bind(factory);
  const tree = sourceFile.compilerNode;
  const ranges: TextRange[] = [];
  const visit = (node: ts.Node): void => {
    // Unknown ts-morph internals: count every number as held (no edit of one is then reused).
    if (ts.isNumericLiteral(node) && (!held || held(node))) ranges.push({ start: node.getStart(tree), end: node.end });
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return ranges;
}

type Region = TextRange & { kind: "comment" | "number" };

/** The comment or arithmetic number that wholly holds [start, end) of the tree's text, if any. */
function neutralRegion(tree: ts.SourceFile, start: number, end: number): Region | undefined {
  const path: ts.Node[] = [tree];
  for (;;) {
    const node = path[path.length - 1]!;
    const child = ts.forEachChild(
      node,
      (c) => (c.getStart(tree) <= start && end <= c.end ? c : undefined),
      (children) => children.find((c) => c.getStart(tree) <= start && end <= c.end),
    );
    if (!child) break;
    path.push(child);
  }
  const node = path[path.length - 1]!;
  if (ts.isNumericLiteral(node)) return arithmeticOperand(path) ? { kind: "number", start: node.getStart(tree), end: node.end } : undefined;
  const comment = commentsBetweenChildren(tree, node).find((c) => c.pos + 2 <= start && end <= c.end - (c.kind === ts.SyntaxKind.MultiLineCommentTrivia ? 2 : 0));
  return comment && isPlainComment(tree.text.slice(comment.pos, comment.end)) ? { kind: "comment", start: comment.pos, end: comment.end } : undefined;
}

/** A number directly under `+ - * …`, outside enum members (whose values are constants the checker computes). */
function arithmeticOperand(path: readonly ts.Node[]): boolean {
  const parent = path[path.length - 2];
  if (!parent || !ts.isBinaryExpression(parent) || !ARITHMETIC.has(parent.operatorToken.kind)) return false;
  return !path.some((node) => ts.isEnumMember(node));
}

/** Comments in the trivia around `node`'s children (where a comment inside `node` but outside every child sits). */
function commentsBetweenChildren(tree: ts.SourceFile, node: ts.Node): ts.CommentRange[] {
  const positions = [node.pos];
  ts.forEachChild(
    node,
    (child) => void positions.push(child.pos, child.end),
    (children) => void positions.push(children.pos, children.end, ...children.flatMap((c) => [c.pos, c.end])),
  );
  return positions.flatMap((pos) => [...(ts.getLeadingCommentRanges(tree.text, pos) ?? []), ...(ts.getTrailingCommentRanges(tree.text, pos) ?? [])]);
}

/** An ordinary comment, whole: no JSDoc, no triple-slash directive, no `@` pragma, no hooklens directive. */
function isPlainComment(comment: string): boolean {
  if (/@|hooklens/i.test(comment) || comment.startsWith("/**") || comment.startsWith("///")) return false;
  if (comment.startsWith("//")) return !LINE_BREAK.test(comment);
  return comment.length >= 4 && comment.startsWith("/*") && comment.indexOf("*/", 2) === comment.length - 2;
}

/** The same kinds of node at the moved positions, in both trees (flags differ: the binder adds some to an analysed tree). */
function sameShape(before: ts.Node, after: ts.Node, move: (offset: number) => number): boolean {
  if (before.kind !== after.kind || move(before.pos) !== after.pos || move(before.end) !== after.end) return false;
  const a: ts.Node[] = [];
  const b: ts.Node[] = [];
  ts.forEachChild(before, (child) => void a.push(child));
  ts.forEachChild(after, (child) => void b.push(child));
  return a.length === b.length && a.every((child, i) => sameShape(child, b[i]!, move));
}

/** Every offset of the result moved; undefined when one falls inside the edited region (it cannot be placed). */
function movedResult(result: AnalysisResult, move: (offset: number) => number): AnalysisResult | undefined {
  const findings = result.findings.map((finding) => ({
    ...finding,
    start: move(finding.start),
    end: move(finding.end),
    ...(finding.fix && { fix: { ...finding.fix, edits: finding.fix.edits.map((edit) => ({ ...edit, start: move(edit.start), end: move(edit.end) })) } }),
  }));
  const notices = result.notices.map((notice) => ({ ...notice, start: move(notice.start), end: move(notice.end) }));
  const offsets = [...findings.flatMap((f) => [f.start, f.end, ...(f.fix?.edits.flatMap((e) => [e.start, e.end]) ?? [])]), ...notices.flatMap((n) => [n.start, n.end])];
  return offsets.some(Number.isNaN) ? undefined : { findings, failures: [], notices };
}
