import path from "node:path";
import { z } from "zod";
import { runArgv } from "../subprocess.js";
import { defineCodingTool, type CodingToolDefinition } from "./definition.js";
import { splitCommand } from "./shellWords.js";
import { failure, OutsideWorkspaceError, type Workspace } from "./workspace.js";

export const DEFAULT_BASH_TIMEOUT_MS = 30_000;
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
  return defineCodingTool("Run one program with arguments inside the workspace (no shell; argv only).", BashRequest, async (args) => {
    const argv = splitCommand(args.command);
    const cwd = workspace.resolve(args.cwd ?? ".");
    for (const word of argv.slice(1)) checkPathArgument(workspace, word, cwd);
    const timeoutMs = args.timeoutMs ?? options.timeoutMs ?? DEFAULT_BASH_TIMEOUT_MS;
    const run = await runArgv(argv, { cwd, timeoutMs, env });
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
    const looksLikePath = path.isAbsolute(candidate) || candidate.split(/[\\/]/).includes("..");
    if (looksLikePath && !workspace.contains(candidate, cwd)) {
      throw new OutsideWorkspaceError(`Argument points outside the workspace: ${word}`);
    }
  }
}

function pickEnv(source: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const key of PASSED_ENV) if (source[key] !== undefined) env[key] = source[key];
  return env;
}
