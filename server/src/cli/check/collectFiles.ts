import { existsSync, readdirSync, statSync } from "node:fs";
import { extname, join, resolve } from "node:path";
import { ANALYZED_EXTENSIONS } from "../../analyzer/project.js";

const SKIPPED_DIRS = new Set(["node_modules", ".git", "dist", "out", "build", "coverage", ".cache", ".hooklens"]);

/** A path given on the command line that does not exist. */
export class MissingPathError extends Error {
  override name = "MissingPathError";
}

/** Every analysable file under the given paths (files are taken as given), sorted. */
export function collectFiles(paths: readonly string[]): string[] {
  for (const path of paths) if (!existsSync(path)) throw new MissingPathError(`no such file or directory: ${path}`);
  const found = new Set<string>();
  const visit = (path: string, explicit: boolean): void => {
    const stats = statSync(path);
    if (stats.isDirectory()) {
      for (const entry of readdirSync(path)) if (!SKIPPED_DIRS.has(entry)) visit(join(path, entry), false);
    } else if (explicit || (ANALYZED_EXTENSIONS.includes(extname(path)) && !/\.d\.[cm]?ts$/.test(path))) {
      found.add(path);
    }
  };
  for (const path of paths) visit(resolve(path), true);
  return [...found].sort();
}
