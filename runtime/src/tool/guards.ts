import path from "node:path";
import { PermissionError } from "./errors.js";
import { fnmatch, hasWildcard } from "./fnmatch.js";
import { ownValue, type ToolArgs } from "./objects.js";
import { expandUser, isWithin, resolveLoose } from "./paths.js";

/** Commands that destroy data or history, matched case-insensitively anywhere in `args.command`. */
const DESTRUCTIVE = new RegExp(
  [
    String.raw`\brm\s+-rf\b`,
    String.raw`git\s+push\s+--force`,
    String.raw`git\s+reset\s+--hard`,
    String.raw`git\s+clean\s+-fd`,
    String.raw`drop\s+table`,
    String.raw`drop\s+database`,
    String.raw`truncate\s+table`,
    String.raw`\bmkfs\b`,
    String.raw`\bdd\s+if=`,
    String.raw`>\s*/dev/sd[a-z]`,
  ].join("|"),
  "i",
);

/**
 * A pre-hook that refuses destructive shell commands (`rm -rf`, forced pushes, hard resets,
 * `drop table`, `mkfs`, raw disk writes …) with a PermissionError. Other calls pass untouched.
 */
export const guardDestructive = async function guardDestructive(_toolName: string, _action: string, args: ToolArgs): Promise<undefined> {
  const command = ownValue(args, "command");
  const text = typeof command === "string" ? command : "";
  if (DESTRUCTIVE.test(text)) {
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
 * A pre-hook that confines `args.path` (or `args.filePath`) to allowed roots and away from deny
 * rules. Paths are resolved through symlinks before they are compared, component by component.
 */
export function guardPaths(options: GuardPathsOptions = {}): (toolName: string, action: string, args: ToolArgs) => Promise<undefined> {
  const roots = (options.allowedPaths ?? []).map((root) => resolveLoose(expandUser(root)));
  const denied = [...(options.deniedPaths ?? [])];
  return async function pathGuard(_toolName: string, _action: string, args: ToolArgs): Promise<undefined> {
    const raw = String(ownValue(args, "path") || ownValue(args, "filePath") || "");
    if (raw === "") return undefined;
    const expanded = expandUser(raw);
    const resolved = resolveLoose(path.isAbsolute(expanded) || roots.length === 0 ? expanded : path.join(roots[0]!, expanded));
    if (roots.length > 0 && !roots.some((root) => isWithin(resolved, root))) {
      throw new PermissionError(`Path not in allowed list: ${raw}`);
    }
    for (const rule of denied) {
      if (matchesDenyRule(rule, raw, resolved)) throw new PermissionError(`Path matches deny rule: ${raw}`);
    }
    return undefined;
  };
}

function matchesDenyRule(rule: string, raw: string, resolved: string): boolean {
  const expandedRule = expandUser(rule);
  if (path.isAbsolute(expandedRule)) return isWithin(resolved, resolveLoose(expandedRule));
  if (hasWildcard(rule)) return resolved.split(path.sep).some((part) => part !== "" && fnmatch(part, rule));
  return raw.includes(rule) || path.basename(resolved).includes(rule);
}
