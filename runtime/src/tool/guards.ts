import path from "node:path";
import { PermissionError } from "./errors.js";
import { destructiveReason } from "./destructive/destructiveCommands.js";
import { fnmatch, hasWildcard } from "./fnmatch.js";
import { ownValue, type ToolArgs } from "./objects.js";
import { expandUser, isWithin, resolveLoose } from "./paths.js";
import { optionsObject, requireObject, requireStrings } from "../shared/arguments.js";

/**
 * A pre-hook that refuses destructive shell commands (`rm -rf`, forced pushes, hard resets,
 * forced cleans, `drop table`, `mkfs`, `dd`, raw disk writes …) with a PermissionError. The
 * command is parsed into simple commands and words and judged on meaning, whatever the spelling
 * (see {@link destructiveReason} for the list and for what it cannot see). Other calls pass untouched.
 */
export const guardDestructive = async function guardDestructive(_toolName: string, _action: string, args: ToolArgs): Promise<undefined> {
  // Refused, not passed: a guard that cannot read the call must not let it through.
  requireObject(args, "guardDestructive(toolName, action, args)", "args");
  const command = ownValue(args, "command");
  const text = typeof command === "string" ? command : "";
  if (destructiveReason(text) !== null) {
    throw new PermissionError(`Blocked destructive command: ${text}\nIf you need this, explain why and ask the user to run it manually.`);
  }
  return undefined;
};

export interface GuardPathsOptions {
  /** Roots a path must be equal to or inside. A relative path is resolved against the first root. */
  allowedPaths?: readonly string[] | null;
  /**
   * Deny rules: an absolute path denies itself and everything under it; a relative rule with
   * `*`, `?` or `[` is matched against each component of the resolved path; any other relative
   * rule denies every path whose raw text or file name contains it (so `.env` also blocks `.env.local`).
   */
  deniedPaths?: readonly string[] | null;
}

/**
 * The argument names a path arrives under, looked up in this order: the runtime's own tools use
 * `path` and `filePath`; tools ported from Python spell it `file_path` or `filename`.
 */
export const PATH_ARGUMENT_NAMES: readonly string[] = ["path", "filePath", "file_path", "filepath", "fileName", "file_name", "filename", "file", "dirPath", "dir_path", "directory", "dir"];

/**
 * A pre-hook that confines a call's path argument (any of `PATH_ARGUMENT_NAMES`; every one present
 * is checked) to allowed roots and away from deny rules. Paths are resolved through symlinks before
 * they are compared, component by component. A call with no path argument it can find, or one that
 * is not a non-empty string, is refused rather than let through unchecked.
 */
export function guardPaths(options: GuardPathsOptions = {}): (toolName: string, action: string, args: ToolArgs) => Promise<undefined> {
  optionsObject(options, "guardPaths(options)");
  if (options.allowedPaths != null) requireStrings(options.allowedPaths, "guardPaths(options)", "options.allowedPaths", true);
  if (options.deniedPaths != null) requireStrings(options.deniedPaths, "guardPaths(options)", "options.deniedPaths", true);
  const roots = (options.allowedPaths ?? []).map((root) => resolveLoose(expandUser(root)));
  const denied = [...(options.deniedPaths ?? [])];
  return async function pathGuard(toolName: string, _action: string, args: ToolArgs): Promise<undefined> {
    for (const raw of pathArguments(toolName, args)) {
      const expanded = expandUser(raw);
      const resolved = resolveLoose(path.isAbsolute(expanded) || roots.length === 0 ? expanded : path.join(roots[0]!, expanded));
      if (roots.length > 0 && !roots.some((root) => isWithin(resolved, root))) {
        throw new PermissionError(`Path not in allowed list: ${raw}`);
      }
      for (const rule of denied) {
        if (matchesDenyRule(rule, raw, resolved)) throw new PermissionError(`Path matches deny rule: ${raw}`);
      }
    }
    return undefined;
  };
}

/** The values of every path argument present; refuses a call without one, or with one that is not text. */
function pathArguments(toolName: string, args: unknown): string[] {
  if (args === null || typeof args !== "object") {
    throw new PermissionError(`guardPaths refused ${toolName}: its arguments are ${args === null ? "null" : typeof args}, not an object with a path`);
  }
  const found: string[] = [];
  for (const name of PATH_ARGUMENT_NAMES) {
    const value = ownValue(args, name);
    if (value === undefined) continue;
    if (typeof value !== "string" || value === "") {
      throw new PermissionError(`guardPaths refused ${toolName}: argument "${name}" must be a non-empty path string, got ${JSON.stringify(value) ?? typeof value}`);
    }
    found.push(value);
  }
  if (found.length === 0) {
    const keys = Object.keys(args);
    throw new PermissionError(
      `guardPaths refused ${toolName}: no path argument among ${keys.length > 0 ? keys.join(", ") : "its (no) arguments"}; ` +
        `it looks for ${PATH_ARGUMENT_NAMES.join(", ")}`,
    );
  }
  return found;
}

function matchesDenyRule(rule: string, raw: string, resolved: string): boolean {
  const expandedRule = expandUser(rule);
  if (path.isAbsolute(expandedRule)) return isWithin(resolved, resolveLoose(expandedRule));
  if (hasWildcard(rule)) return resolved.split(path.sep).some((part) => part !== "" && fnmatch(part, rule));
  return raw.includes(rule) || path.basename(resolved).includes(rule);
}
