import { readFileSync } from "node:fs";
import type { AnalysisNotice } from "../../analyzer/index.js";
import { LibraryParses } from "../../analyzer/engine/libraryParses.js";
import { AnalysisProject } from "../../analyzer/index.js";
import { ALL_RULES } from "../../analyzer/index.js";
import type { Rule } from "../../analyzer/index.js";
import { isAnalyzedExtension, unreadableFileNotice } from "../../analyzer/engine/unreadableFile.js";
import { applyRuleLevels } from "../../config/ruleSettings.js";
import type { RuleConfig } from "./configFile.js";
import type { FileReport, Position } from "./report.js";
import { LineTable } from "./lineAndColumn.js";
import { targetsFromPaths, type CheckTarget } from "./targets.js";

/**
 * How many files share one ts-morph project. The files of a batch are added together, so one
 * program and one type checker serve them all (adding files one by one rebuilds both each time);
 * the next batch starts a fresh project, so what the checker cached is let go and memory stays
 * bounded however large the tree is.
 */
export const FILES_PER_PROJECT = 20;

export interface CheckedTarget extends CheckTarget {
  config: RuleConfig;
}

/**
 * Analyses the targets in order and hands each file's report to `onFile` as soon as it is done.
 * A file the parser or the analysis cannot handle becomes a report with a notice; it never stops
 * the run or hides another file's findings.
 */
export function checkTargets(targets: readonly CheckedTarget[], onFile: (report: FileReport) => void): void {
  // Library declaration files (packages, @types, the standard library) do not change during a run:
  // the batches of one folder and tsconfig parse and bind them once. Only the current folder's are
  // kept, so memory stays bounded however many projects a tree holds.
  let libraries: { key: string; parses: LibraryParses } | undefined;
  let batch: CheckedTarget[] = [];
  const flush = (): void => {
    if (batch.length === 0) return;
    const key = `${batch[0]!.root}\0${batch[0]!.tsconfig ?? ""}`;
    if (libraries?.key !== key) libraries = { key, parses: new LibraryParses() };
    checkBatch(batch, libraries.parses, onFile);
    batch = [];
  };
  for (const target of targets) {
    const first = batch[0];
    if (first && (first.root !== target.root || first.tsconfig !== target.tsconfig || batch.length >= FILES_PER_PROJECT)) flush();
    batch.push(target);
  }
  flush();
}

function checkBatch(batch: readonly CheckedTarget[], libraryParses: LibraryParses, onFile: (report: FileReport) => void): void {
  const first = batch[0]!;
  const unreadable = new Map<string, AnalysisNotice>();
  for (const { file } of batch) if (!isAnalyzedExtension(file)) unreadable.set(file, unreadableFileNotice(file));
  const fill = (): AnalysisProject => {
    for (;;) {
      const project = new AnalysisProject(first.root, first.tsconfig ? { tsConfigFilePath: first.tsconfig, libraryParses } : { libraryParses });
      // Only files that can reach a hook library enter the program; the others are answered from syntax alone.
      const failed = batch.find(({ file }) => !unreadable.has(file) && project.usesHookLibrary(file) && !tryAdd(project, file, unreadable));
      if (!failed) return project;
      // A file the parser gave up on may have left the project half-updated: start over without it.
    }
  };
  let project = fill();
  for (const target of batch) {
    const notice = unreadable.get(target.file);
    if (notice) {
      onFile({ file: target.file, findings: [], notices: [{ ...notice, line: 1, column: 1, endLine: 1, endColumn: 1 }] });
      continue;
    }
    try {
      onFile(analyzeTarget(project, target));
    } catch (error) {
      // The program as a whole failed (a file it imports overflows the parser, say): report this
      // file and go on with a fresh project, so one bad file cannot take the batch down with it.
      onFile(failedFileReport(target.file, error));
      unreadable.set(target.file, unreadableFileNotice(target.file, error));
      project = fill();
    }
  }
}

/** Adds a file; false (and the file noted as unreadable) when TypeScript's parser gives up on it. */
function tryAdd(project: AnalysisProject, file: string, unreadable: Map<string, AnalysisNotice>): boolean {
  try {
    project.addFromDisk(file);
    return true;
  } catch (error) {
    // TypeScript's parser recurses: deep nesting overflows the stack.
    unreadable.set(file, unreadableFileNotice(file, error));
    return false;
  }
}

function analyzeTarget(project: AnalysisProject, target: CheckedTarget): FileReport {
  const sourceFile = project.usesHookLibrary(target.file) ? project.addFromDisk(target.file) : undefined;
  const rules: Rule[] = ALL_RULES.filter((rule) => target.config.rules[rule.code] !== "off");
  const result = project.analyze(target.file, { rules });
  let lines: LineTable | undefined;
  const lineAndColumn = (offset: number): { line: number; column: number } =>
    (lines ??= new LineTable(sourceFile ? sourceFile.getFullText() : readFileSync(target.file, "utf8"))).at(offset);
  const position = (start: number, end: number): Position => {
    const from = lineAndColumn(start);
    const to = lineAndColumn(end);
    return { line: from.line, column: from.column, endLine: to.line, endColumn: to.column };
  };
  return {
    file: target.file,
    findings: applyRuleLevels(result.findings, target.config.rules).map((finding) => ({ ...finding, ...position(finding.start, finding.end) })),
    notices: result.notices.map((notice) => ({ ...notice, ...position(notice.start, notice.end) })),
  };
}

function failedFileReport(file: string, error: unknown): FileReport {
  const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const notice: AnalysisNotice = { kind: "rules-failed", message: `Not analysed: the analysis failed (${reason}).`, start: 0, end: 0, rules: ALL_RULES.map((r) => r.code) };
  return { file, findings: [], notices: [{ ...notice, line: 1, column: 1, endLine: 1, endColumn: 1 }] };
}

/** Every report for the files under `paths`, at default rule levels: for callers inside the project (tests). */
export function checkPaths(paths: readonly string[]): FileReport[] {
  const reports: FileReport[] = [];
  const targets = targetsFromPaths(paths).targets.map((target) => ({ ...target, config: { path: undefined, rules: {} } }));
  checkTargets(targets, (report) => reports.push(report));
  return reports;
}
