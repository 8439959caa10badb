import { existsSync, statSync, type Stats } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { ts } from "ts-morph";
import { collectFiles, oddFileReason, type CollectOptions, type SkippedFile } from "./collectFiles.js";

/** One file to check and the TypeScript configuration it is read with. */
export interface CheckTarget {
  file: string;
  /** The folder whose project the file belongs to (its tsconfig's folder). */
  root: string;
  /** The tsconfig whose options apply; none means the analyzer's defaults. */
  tsconfig: string | undefined;
}

/** What to check, and the files found that are not checked (with why). */
export interface CheckPlan {
  targets: CheckTarget[];
  skipped: SkippedFile[];
}

/** A tsconfig given with --project that cannot be used. */
export class ProjectConfigError extends Error {
  override name = "ProjectConfigError";
}

/** Files under the given paths, each with the nearest tsconfig.json above it. */
export function targetsFromPaths(paths: readonly string[], options?: CollectOptions): CheckPlan {
  const { files, skipped } = collectFiles(paths, options);
  const targets = files.map((file) => {
    const root = projectRootOf(file);
    const tsconfig = join(root, "tsconfig.json");
    return { file, root, tsconfig: existsSync(tsconfig) ? tsconfig : undefined };
  });
  return { targets, skipped };
}

/**
 * The files of one tsconfig (its `files`/`include` minus `exclude`, declaration files left out),
 * all read with its options; with paths, only those files under them.
 */
export function targetsFromProject(project: string, paths: readonly string[], maxFileBytes: number): CheckPlan {
  let tsconfig = resolve(project);
  if (existsSync(tsconfig) && statSync(tsconfig).isDirectory()) tsconfig = join(tsconfig, "tsconfig.json");
  if (!existsSync(tsconfig)) throw new ProjectConfigError(`--project: no such tsconfig: ${project}`);
  const diagnostics: ts.Diagnostic[] = [];
  const host: ts.ParseConfigFileHost = {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => diagnostics.push(diagnostic),
  };
  const parsed = ts.getParsedCommandLineOfConfigFile(tsconfig, {}, host);
  const errors = [...diagnostics, ...(parsed?.errors ?? [])].filter((d) => d.category === ts.DiagnosticCategory.Error && d.code !== NO_INPUTS_CODE);
  if (!parsed || errors.length > 0) {
    const reason = errors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, " ")).join("; ") || "unreadable";
    throw new ProjectConfigError(`--project ${project}: ${reason}`);
  }
  const within = paths.map((path) => resolve(path));
  const root = dirname(tsconfig);
  const plan: CheckPlan = { targets: [], skipped: [] };
  const files = parsed.fileNames
    .map((file) => resolve(file))
    .filter((file) => !/\.d\.[cm]?ts$/.test(file))
    .filter((file) => within.length === 0 || within.some((dir) => file === dir || file.startsWith(dir + sep)))
    .sort();
  for (const file of files) {
    // TypeScript lists a FIFO named like a source file too; reading it would block forever.
    const reason = oddFileReason(statOrUndefined(file), maxFileBytes);
    if (reason) plan.skipped.push({ file, reason });
    else plan.targets.push({ file, root, tsconfig });
  }
  return plan;
}

function statOrUndefined(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}

/** TS18003 "No inputs were found": an empty project is reported as zero files, not as an error. */
const NO_INPUTS_CODE = 18003;

function projectRootOf(file: string): string {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    if (existsSync(join(dir, "tsconfig.json"))) return dir;
    if (dirname(dir) === dir) return dirname(resolve(file));
  }
}

/** A path as the user reads it: relative to the working folder when inside it. */
export function displayPath(file: string, cwd: string): string {
  const path = relative(cwd, file);
  return path.startsWith("..") ? file : path;
}
