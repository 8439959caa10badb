import { constants, lstatSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { runArgv, type RunArgvResult } from "../subprocess.js";
import { listablePath, openConfined } from "./confinedFile.js";
import { defineCodingTool, type CodingToolDefinition } from "./definition.js";
import { splitCommand } from "./shellWords.js";
import { failure, OutsideWorkspaceError, type Workspace } from "./workspace.js";

export const DEFAULT_BASH_TIMEOUT_MS = 30_000;
/** What the model is told: the limits of the confinement included, so it does not count on more. */
const BASH_DESCRIPTION =
  "Run one program with arguments in a workspace folder (no shell; argv only). Arguments naming paths outside the workspace, " +
  "through symlinks too, are refused; the program itself is not sandboxed and can reach whatever the user running it can.";
const MAX_BASH_TIMEOUT_MS = 600_000;
/** The variables a command sees by default: enough to find programs, nothing secret. */
const PASSED_ENV = ["PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR", "TERM", "USER", "LOGNAME"];

export const BashRequest = z.object({
  command: z.string().min(1).describe("One program and its arguments. No pipes, redirection, variables or wildcards: no shell runs it."),
  cwd: z.string().optional().describe("Working directory relative to the workspace root (default: the root)"),
  timeoutMs: z.number().int().min(1).max(MAX_BASH_TIMEOUT_MS).optional().describe("Kill the command after this many ms"),
});

export interface BashToolOptions {
  /** Default timeout when a call gives none. */
  timeoutMs?: number;
  /** The environment commands run with; default: PATH, HOME, locale and user variables only. */
  env?: NodeJS.ProcessEnv;
}

/**
 * Runs one program from the workspace. The command line is split into argv words and started
 * without a shell, inside the workspace, with a timeout. Arguments that name paths outside the
 * workspace (absolute, `..`, `--opt=/path`, or attached as in `-t/path`) are refused. This confines paths the model spells
 * out; it is not a sandbox for what the program itself does.
 */
export function bashTool(workspace: Workspace, options: BashToolOptions = {}): CodingToolDefinition {
  const env = options.env ?? pickEnv(process.env);
  return defineCodingTool(BASH_DESCRIPTION, BashRequest, async (args) => {
    const argv = splitCommand(args.command);
    const cwd = workspace.resolve(args.cwd ?? ".");
    for (const word of argv.slice(1)) checkPathArgument(workspace, word, cwd);
    const timeoutMs = args.timeoutMs ?? options.timeoutMs ?? DEFAULT_BASH_TIMEOUT_MS;
    // Started in the folder that was opened and checked, not in whatever its path names by then.
    const folder = await openConfined(workspace, cwd, constants.O_RDONLY | constants.O_DIRECTORY);
    let run: RunArgvResult;
    try {
      run = await runArgv(argv, { cwd: await listablePath(folder, cwd), timeoutMs, env });
    } finally {
      await folder.close();
    }
    if (run.spawnError) return failure(`Could not start ${argv[0]}: ${run.spawnError.message}`);
    return {
      success: run.returnCode === 0,
      returnCode: run.returnCode,
      stdout: run.stdout,
      stderr: run.stderr,
      timedOut: run.timedOut,
      truncated: run.truncated,
    };
  });
}

/**
 * Refuses a word that names a path outside the workspace: `/abs`, anything with `..`, or an option
 * carrying such a value, whether separated by `=` (`--opt=/x`) or attached (`-t/x`, `-C../x`, `-xf/x`).
 */
function checkPathArgument(workspace: Workspace, word: string, cwd: string): void {
  const candidates = [word];
  // An option's value may start at any character after the dash: every suffix is a candidate.
  if (word.startsWith("-")) for (let i = 1; i < word.length; i++) candidates.push(word.slice(i));
  for (const candidate of candidates) {
    // Resolved through symlinks like the reader's paths: `rootlink/etc/passwd` is outside too.
    const looksLikePath = path.isAbsolute(candidate) || /[\\/]/.test(candidate) || existsLoosely(path.resolve(cwd, candidate));
    if (looksLikePath && !workspace.contains(candidate, cwd)) {
      throw new OutsideWorkspaceError(`Argument points outside the workspace: ${word}`);
    }
  }
}

/** Whether `target` names an entry, a dangling symlink included. */
function existsLoosely(target: string): boolean {
  try {
    lstatSync(target);
    return true;
  } catch {
    return false;
  }
}

function pickEnv(source: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const key of PASSED_ENV) if (source[key] !== undefined) env[key] = source[key];
  return env;
}
