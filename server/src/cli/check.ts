import { existsSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { AnalysisProject } from "../analyzer/project.js";
import type { Finding } from "../analyzer/types.js";
import { collectFiles } from "./collectFiles.js";

export interface FileReport {
  file: string;
  findings: (Finding & { line: number; column: number; endLine: number; endColumn: number })[];
  ruleFailures: string[];
}

/** Analyses files with one project per nearest tsconfig.json folder (the folder's own settings). */
export function checkPaths(paths: readonly string[]): FileReport[] {
  const projects = new Map<string, AnalysisProject>();
  const reports: FileReport[] = [];
  for (const file of collectFiles(paths)) {
    const root = projectRootOf(file);
    let project = projects.get(root);
    if (!project) projects.set(root, (project = new AnalysisProject(root)));
    const sourceFile = project.addFromDisk(file);
    const { findings, failures } = project.analyze(file);
    reports.push({
      file,
      ruleFailures: failures.map((f) => `${f.code}: ${f.error instanceof Error ? f.error.message : String(f.error)}`),
      findings: findings.map((finding) => {
        const start = sourceFile.getLineAndColumnAtPos(finding.start);
        const end = sourceFile.getLineAndColumnAtPos(finding.end);
        return { ...finding, line: start.line, column: start.column, endLine: end.line, endColumn: end.column };
      }),
    });
  }
  return reports;
}

function projectRootOf(file: string): string {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    if (existsSync(join(dir, "tsconfig.json"))) return dir;
    if (dirname(dir) === dir) return dirname(resolve(file));
  }
}

/** Human-readable report: `file:line:col  severity  message  CODE`. */
export function formatText(reports: readonly FileReport[], cwd: string): string {
  const lines: string[] = [];
  let count = 0;
  for (const report of reports) {
    for (const f of report.findings) {
      count++;
      lines.push(`${relative(cwd, report.file)}:${f.line}:${f.column}  ${f.severity}  ${f.message}  ${f.code}`);
    }
    for (const failure of report.ruleFailures) lines.push(`${relative(cwd, report.file)}  rule failed (${failure})`);
  }
  lines.push(count === 0 ? `No problems in ${reports.length} file(s).` : `${count} problem(s) in ${reports.length} file(s).`);
  return lines.join("\n");
}
