import { formatMs } from "../durations.js";
import type { CheckOutput, CheckSummary, FileReport } from "./report.js";
import { displayPath } from "./targets.js";

type Write = (text: string) => void;

/**
 * `file:line:col  severity  message  CODE`, one line per finding (and an indented line for the other
 * file's place it is about, when there is one), and a line per notice for a file
 * that was not fully analysed, written as each file is done; then one summary line.
 */
export function textOutput(write: Write, cwd: string, options: { allowIncomplete: boolean }): CheckOutput {
  return {
    file(report: FileReport) {
      const path = displayPath(report.file, cwd);
      const lines = report.findings.map(
        (f) =>
          `${path}:${f.line}:${f.column}  ${f.severity}  ${f.message}  ${f.code}\n` +
          // The other file's place, indented under the finding as TypeScript prints related information.
          (f.related ? `    ${displayPath(f.related.file, cwd)}:${f.related.line + 1}:${f.related.character + 1}  ${f.related.message}\n` : ""),
      );
      for (const notice of report.notices) lines.push(`${path}:${notice.line}:${notice.column}  incomplete  ${notice.message}\n`);
      if (lines.length > 0) write(lines.join(""));
    },
    finish(summary: CheckSummary) {
      write(summaryText(summary, options.allowIncomplete) + "\n");
    },
  };
}

/**
 * One line: what was found, in how many files, how long it took, and how many files were not fully
 * analysed. "No problems" only when every file was fully analysed.
 */
export function summaryText(summary: CheckSummary, allowIncomplete: boolean): string {
  const files = count(summary.files, "file");
  const took = `(${formatDuration(summary.durationMs)})`;
  const problems = summary.errors + summary.warnings + summary.notes;
  let text: string;
  if (problems === 0) text = summary.incompleteFiles === 0 ? `No problems in ${files} ${took}` : `0 problems in ${files} ${took}`;
  else {
    const kinds = [count(summary.errors, "error"), count(summary.warnings, "warning")];
    if (summary.notes > 0) kinds.push(count(summary.notes, "note"));
    text = `${count(problems, "problem")} (${kinds.join(", ")}) in ${summary.filesWithFindings} of ${files} ${took}`;
  }
  if (summary.incompleteFiles === 0) return `${text}.`;
  const accept = allowIncomplete ? "" : "; --allow-incomplete accepts that";
  return `${text}; ${summary.incompleteFiles} of them not fully analysed (the lines marked "incomplete")${accept}.`;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

function formatDuration(ms: number): string {
  return ms < 1000 ? formatMs(ms) : `${(ms / 1000).toFixed(1)} s`;
}
