import type { AnalysisResult } from "../analyzer/index.js";
import type { Finding } from "../analyzer/index.js";
import { positionAt } from "./convert.js";

/** An analysed text with its line starts, as the workspace caches it. */
export interface AnalysedText {
  text: string;
  lineStarts: readonly number[];
  result: AnalysisResult;
}

/**
 * A rule that throws on the new text (often a half-typed line) would make its diagnostics flicker
 * off and on again. Instead its findings from the previous analysis stay, moved to the same line and
 * column of the new text, without their quick fix (an edit computed for other text is not certain).
 */
export function carryFailedRules(previous: AnalysedText | undefined, next: Omit<AnalysedText, "result">, result: AnalysisResult): AnalysisResult {
  if (!previous || result.failures.length === 0) return result;
  const failed = new Set(result.failures.map((f) => f.code));
  const carried = previous.result.findings
    .filter((finding) => failed.has(finding.code))
    .map((finding): Finding => {
      const { fix: _dropped, ...rest } = finding;
      return { ...rest, start: moved(finding.start, previous, next), end: moved(finding.end, previous, next) };
    });
  if (carried.length === 0) return result;
  const findings = [...result.findings, ...carried].sort((a, b) => a.start - b.start || a.code.localeCompare(b.code));
  return { ...result, findings };
}

/** The offset at the same line and column in the new text, clamped to that line's end. */
function moved(offset: number, from: Omit<AnalysedText, "result">, to: Omit<AnalysedText, "result">): number {
  const { line, character } = positionAt(from.lineStarts, offset);
  if (line >= to.lineStarts.length) return to.text.length;
  const lineStart = to.lineStarts[line]!;
  const lineEnd = line + 1 < to.lineStarts.length ? to.lineStarts[line + 1]! - 1 : to.text.length;
  return Math.min(lineStart + character, lineEnd);
}
