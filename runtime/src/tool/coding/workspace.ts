import path from "node:path";
import { danglingLinkIn, isWithin, resolveLoose } from "../paths.js";
import { requireName } from "../../shared/arguments.js";

/** A path that leaves the workspace. Tools turn it into a `{ success: false, error }` result. */
export class OutsideWorkspaceError extends Error {
  override name = "OutsideWorkspaceError";
}

/**
 * The root every coding tool is confined to. Paths are resolved through every existing symlink,
 * including a dangling last one, before the containment check, and dangling links are refused;
 * the tools then re-check the opened descriptor (see confinedFile.ts) to close the swap race.
 */
export class Workspace {
  readonly root: string;

  constructor(root: string) {
    this.root = resolveLoose(requireName(root, "new Workspace(root)", "root (a directory path)"));
  }

  /** The absolute, symlink-resolved path of `target` (relative paths start at the root); throws when it is outside. */
  resolve(target: string, base: string = this.root): string {
    const absolute = path.resolve(base, target);
    const resolved = resolveLoose(absolute);
    if (!isWithin(resolved, this.root)) throw new OutsideWorkspaceError(`Path is outside the workspace: ${target}`);
    // A dangling link inside could be re-pointed anywhere before the write; refuse it outright.
    if (danglingLinkIn(absolute) !== null) throw new OutsideWorkspaceError(`Path goes through a dangling symlink: ${target}`);
    return resolved;
  }

  /** True when `target` resolves inside the workspace. */
  contains(target: string, base: string = this.root): boolean {
    return isWithin(resolveLoose(path.resolve(base, target)), this.root);
  }

  /** A path relative to the root, with "/" separators, for results shown to the model. */
  relative(absolute: string): string {
    return path.relative(this.root, absolute).split(path.sep).join("/") || ".";
  }
}

/** The uniform failure result of a coding tool. */
export function failure(error: unknown): { success: false; error: string } {
  return { success: false, error: error instanceof Error ? error.message : String(error) };
}
