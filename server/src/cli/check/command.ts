import { ALL_RULES } from "../../analyzer/index.js";
import { docsUrlResolver } from "../../docsLinks.js";
import manifest from "../../../package.json";
import { MissingPathError } from "./collectFiles.js";
import { ConfigFileError, RuleConfigLookup } from "./configFile.js";
import { jsonOutput } from "./jsonOutput.js";
import { addToSummary, emptySummary, skippedFileReport, type CheckOutput, type FileReport } from "./report.js";
import { checkTargets, type CheckedTarget } from "./runner.js";
import { sarifOutput } from "./sarifOutput.js";
import { ProjectConfigError, targetsFromPaths, targetsFromProject, type CheckPlan } from "./targets.js";
import { textOutput } from "./textOutput.js";

export type CheckFormat = "text" | "json" | "sarif";

export interface CheckCommandOptions {
  paths: readonly string[];
  format: CheckFormat;
  maxWarnings: number;
  project: string | undefined;
  allowIncomplete: boolean;
  followSymlinks: boolean;
  maxFileBytes: number;
  /** Where the bundle lives, to find the docs/rules/ pages shipped beside it. */
  bundleDir: string;
  cwd: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** Exit codes of `hooklens check`. */
export const EXIT = { clean: 0, problems: 1, usage: 2, incomplete: 3 } as const;

/**
 * `hooklens check`: resolves what to check and with which settings (failing early on a wrong
 * path, tsconfig or config file), then streams each file's report to the chosen output.
 */
export function checkCommand(options: CheckCommandOptions): number {
  let targets: CheckedTarget[];
  let plan: CheckPlan;
  try {
    const { followSymlinks, maxFileBytes } = options;
    plan = options.project ? targetsFromProject(options.project, options.paths, maxFileBytes) : targetsFromPaths(options.paths.length > 0 ? options.paths : ["."], { followSymlinks, maxFileBytes });
    const configs = new RuleConfigLookup(options.cwd, ALL_RULES.map((rule) => rule.code));
    targets = plan.targets.map((target) => ({ ...target, config: configs.forFile(target.file) }));
  } catch (error) {
    if (!(error instanceof MissingPathError || error instanceof ProjectConfigError || error instanceof ConfigFileError)) throw error;
    options.stderr(`hooklens: ${error.message}\n`);
    return EXIT.usage;
  }
  const started = new Date();
  const output = makeOutput(options, started);
  const summary = emptySummary();
  const report = (fileReport: FileReport): void => {
    addToSummary(summary, fileReport);
    output.file(fileReport);
  };
  for (const skipped of plan.skipped) report(skippedFileReport(skipped));
  checkTargets(targets, report);
  summary.durationMs = Date.now() - started.getTime();
  output.finish(summary);
  if (summary.errors > 0 || summary.warnings > options.maxWarnings) return EXIT.problems;
  return summary.incompleteFiles > 0 && !options.allowIncomplete ? EXIT.incomplete : EXIT.clean;
}

function makeOutput(options: CheckCommandOptions, started: Date): CheckOutput {
  const docsUrl = docsUrlResolver(options.bundleDir);
  switch (options.format) {
    case "json":
      return jsonOutput(options.stdout, docsUrl);
    case "sarif":
      return sarifOutput(options.stdout, { cwd: options.cwd, version: manifest.version, docsUrl, rules: ALL_RULES, startTime: started });
    case "text":
      return textOutput(options.stdout, options.cwd, { allowIncomplete: options.allowIncomplete });
  }
}
