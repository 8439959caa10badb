import type { SourceFile } from "ts-morph";
import { noticesFor } from "./notices.js";
import { ALL_RULES } from "./rules/index.js";
import { RuntimeResolver } from "./runtimeResolver.js";
import type { PackageNames } from "./reach/packageNames.js";
import type { ModuleExports } from "./syntacticRuntime.js";
import { removeSuppressed } from "./suppressions.js";
import type { Finding, Rule } from "./types.js";

/**
 * Why a file was not (fully) analysed, so no caller ever mistakes "could not look" for "no problems".
 * `start`/`end` locate what it is about (the runtime import, the first syntax error), 0/0 for the whole file.
 */
export interface AnalysisNotice {
  kind: "syntax-errors" | "runtime-unresolved" | "unsupported-file" | "rules-failed";
  message: string;
  start: number;
  end: number;
  /** For "rules-failed": the codes of the rules that threw. */
  rules?: string[];
}

export interface AnalysisResult {
  findings: Finding[];
  /** Rules that threw; their findings are missing but the others still count. */
  failures: { code: string; error: unknown }[];
  /** What kept the analysis from being complete; empty when every rule looked at the whole file. */
  notices: AnalysisNotice[];
}

export interface AnalyzeOptions {
  rules?: readonly Rule[];
  /** Checked between rules; a true value stops early (the caller has a newer version). */
  isCancelled?: () => boolean;
  /** The project's modules as syntax knows them, so re-exports of the runtime are followed without the checker. */
  modules?: ModuleExports;
  /** Package names by folder, kept between analyses (each analysis looks them up on disk otherwise). */
  packageNames?: PackageNames;
}

/**
 * Runs every rule over one file. Static only: nothing from the user's code is ever executed.
 * A rule that throws is recorded as a failure and the others still run.
 */
export function analyzeSourceFile(sourceFile: SourceFile, options: AnalyzeOptions = {}): AnalysisResult {
  const runtime = new RuntimeResolver(sourceFile.getProject().getTypeChecker(), { modules: options.modules }, options.packageNames);
  const findings: Finding[] = [];
  const failures: AnalysisResult["failures"] = [];
  const length = sourceFile.getEnd();
  for (const rule of options.rules ?? ALL_RULES) {
    if (options.isCancelled?.()) break;
    try {
      rule.check({
        sourceFile,
        runtime,
        report: ({ severity, ...rest }) => {
          // Offsets past the end come from a node of another module: the rule fails (and says so) rather than the analysis.
          if (rest.start < 0 || rest.start > rest.end || rest.end > length) throw new RangeError(`${rule.code} reported ${rest.start}–${rest.end}, outside the file (0–${length})`);
          findings.push({ code: rule.code, severity: severity ?? rule.defaultSeverity, ...rest });
        },
      });
    } catch (error) {
      failures.push({ code: rule.code, error });
    }
  }
  findings.sort((a, b) => a.start - b.start || a.code.localeCompare(b.code));
  // Applied here, once, so the editor and the CLI honour the same hooklens-disable comments.
  return { findings: removeSuppressed(findings, sourceFile.compilerNode), failures, notices: noticesFor(sourceFile, failures, runtime) };
}
