import type { AnalysisNotice, Finding } from "../../analyzer/index.js";
import type { SkippedFile } from "./collectFiles.js";

/** 1-based line and column of a range's start and end, as editors and SARIF count them. */
export interface Position {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

export type LocatedFinding = Finding & Position;
export type LocatedNotice = AnalysisNotice & Position;

/** What the check found in one file, handed to the output as soon as the file is done. */
export interface FileReport {
  /** Absolute path. */
  file: string;
  findings: LocatedFinding[];
  /** Why the file was not (fully) analysed; empty when it was. */
  notices: LocatedNotice[];
}

export interface CheckSummary {
  files: number;
  errors: number;
  warnings: number;
  /** Findings at "information" or "hint". */
  notes: number;
  filesWithFindings: number;
  /** Files with at least one notice. */
  incompleteFiles: number;
  durationMs: number;
}

/** An output format: told about each file as it is done, then once about the whole run. */
export interface CheckOutput {
  file(report: FileReport): void;
  finish(summary: CheckSummary): void;
}

export function emptySummary(): CheckSummary {
  return { files: 0, errors: 0, warnings: 0, notes: 0, filesWithFindings: 0, incompleteFiles: 0, durationMs: 0 };
}

export function addToSummary(summary: CheckSummary, report: FileReport): void {
  summary.files++;
  for (const finding of report.findings) {
    if (finding.severity === "error") summary.errors++;
    else if (finding.severity === "warning") summary.warnings++;
    else summary.notes++;
  }
  if (report.findings.length > 0) summary.filesWithFindings++;
  if (report.notices.length > 0) summary.incompleteFiles++;
}

/** The report of a file found but not read (a broken link, a FIFO, a file over the size limit): not analysed, so incomplete. */
export function skippedFileReport({ file, reason }: SkippedFile): FileReport {
  return { file, findings: [], notices: [{ kind: "unsupported-file", message: `Not analysed: ${reason}.`, start: 0, end: 0, line: 1, column: 1, endLine: 1, endColumn: 1 }] };
}
