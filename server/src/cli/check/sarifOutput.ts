import { relative, sep } from "node:path";
import { pathToFileURL } from "node:url";
import type { Invocation, Location, Notification, ReportingDescriptor, Result, Run, ToolComponent } from "sarif";
import type { AnalysisNotice } from "../../analyzer/index.js";
import type { RelatedPlace, Rule, Severity } from "../../analyzer/index.js";
import type { CheckOutput, CheckSummary, FileReport, Position } from "./report.js";

type Write = (text: string) => void;

/** Paths in results are relative to this base, which `originalUriBaseIds` ties to the working folder. */
const SRCROOT = "%SRCROOT%";
const NOTICE_KINDS: readonly AnalysisNotice["kind"][] = ["syntax-errors", "runtime-unresolved", "unsupported-file", "rules-failed"];
const NOTICE_TEXT: Record<AnalysisNotice["kind"], string> = {
  "syntax-errors": "The file has syntax errors; findings may be missing.",
  "runtime-unresolved": "@hooklens/runtime cannot be resolved from the file; rules that need its types may miss problems.",
  "unsupported-file": "The file was not analysed: HookLens does not read its type, or TypeScript could not parse it.",
  "rules-failed": "Some rules failed on the file; their findings are missing.",
};

export interface SarifOptions {
  cwd: string;
  version: string;
  docsUrl: (code: string) => string;
  rules: readonly Rule[];
  startTime: Date;
}

/**
 * SARIF 2.1.0, one run, written as it grows: the tool and its rules first, then each result as
 * its file is done, then the invocation with a notification per file that was not fully analysed.
 */
export function sarifOutput(write: Write, options: SarifOptions): CheckOutput {
  const ruleIndex = new Map(options.rules.map((rule, index) => [rule.code, index]));
  const notifications: Notification[] = [];
  const driver: ToolComponent = {
    name: "HookLens",
    version: options.version,
    informationUri: "https://github.com/hooklens/hooklens",
    rules: options.rules.map(ruleDescriptor(options.docsUrl)),
    notifications: NOTICE_KINDS.map((kind) => ({ id: kind, shortDescription: { text: NOTICE_TEXT[kind] } })),
  };
  const head: Omit<Run, "results"> = {
    tool: { driver },
    originalUriBaseIds: { [SRCROOT]: { uri: pathToFileURL(options.cwd + sep).href } },
    columnKind: "utf16CodeUnits",
  };
  // The run's object is written in two halves around the streamed results.
  const headJson = JSON.stringify(head);
  write(`{"$schema":"https://json.schemastore.org/sarif-2.1.0.json","version":"2.1.0","runs":[${headJson.slice(0, -1)},"results":[\n`);
  let first = true;
  return {
    file(report: FileReport) {
      const uri = relativeUri(options.cwd, report.file);
      for (const finding of report.findings) {
        const result: Result = {
          ruleId: finding.code,
          level: sarifLevel(finding.severity),
          message: { text: finding.explanation ? `${finding.message}\n${finding.explanation}` : finding.message },
          locations: [location(uri, finding)],
        };
        if (finding.related) result.relatedLocations = [relatedLocation(options.cwd, finding.related)];
        const index = ruleIndex.get(finding.code);
        if (index !== undefined) result.ruleIndex = index;
        write(`${first ? "" : ",\n"}${JSON.stringify(result)}`);
        first = false;
      }
      for (const notice of report.notices) {
        const notification: Notification = {
          descriptor: { id: notice.kind, index: NOTICE_KINDS.indexOf(notice.kind) },
          level: "warning",
          message: { text: notice.message },
          locations: [location(uri, notice)],
        };
        if (notice.rules?.[0] !== undefined && ruleIndex.has(notice.rules[0])) {
          notification.associatedRule = { id: notice.rules[0], index: ruleIndex.get(notice.rules[0])! };
        }
        notifications.push(notification);
      }
    },
    finish(summary: CheckSummary) {
      const invocation: Invocation = {
        executionSuccessful: true,
        startTimeUtc: options.startTime.toISOString(),
        endTimeUtc: new Date(options.startTime.getTime() + summary.durationMs).toISOString(),
        workingDirectory: { uri: pathToFileURL(options.cwd + sep).href },
        toolExecutionNotifications: notifications,
      };
      write(`\n],"invocations":[${JSON.stringify(invocation)}]}]}\n`);
    },
  };
}

function ruleDescriptor(docsUrl: (code: string) => string): (rule: Rule) => ReportingDescriptor {
  return (rule) => ({
    id: rule.code,
    name: rule.name,
    shortDescription: { text: rule.summary },
    helpUri: docsUrl(rule.code),
    defaultConfiguration: { level: sarifLevel(rule.defaultSeverity) },
  });
}

function sarifLevel(severity: Severity): "error" | "warning" | "note" {
  return severity === "error" ? "error" : severity === "warning" ? "warning" : "note";
}

function location(uri: string, position: Position): Location {
  return {
    physicalLocation: {
      artifactLocation: { uri, uriBaseId: SRCROOT },
      region: { startLine: position.line, startColumn: position.column, endLine: position.endLine, endColumn: position.endColumn },
    },
  };
}

/** The other file's place a finding is about (SARIF counts lines and columns from 1). */
function relatedLocation(cwd: string, related: RelatedPlace): Location {
  return {
    physicalLocation: { artifactLocation: { uri: relativeUri(cwd, related.file), uriBaseId: SRCROOT }, region: { startLine: related.line + 1, startColumn: related.character + 1 } },
    message: { text: related.message },
  };
}

/** A file's path relative to the working folder as a URI reference: forward slashes, each segment escaped. */
function relativeUri(cwd: string, file: string): string {
  return relative(cwd, file).split(sep).map(encodeURIComponent).join("/");
}
