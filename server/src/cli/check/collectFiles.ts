import { existsSync, lstatSync, readdirSync, realpathSync, statSync, type Stats } from "node:fs";
import { extname, join, resolve } from "node:path";
import { ANALYZED_EXTENSIONS } from "../../analyzer/index.js";
import { DEFAULT_MAX_FILE_BYTES } from "./fileSize.js";

const SKIPPED_DIRS = new Set(["node_modules", ".git", "dist", "out", "build", "coverage", ".cache", ".hooklens"]);

/** A path given on the command line that does not exist. */
export class MissingPathError extends Error {
  override name = "MissingPathError";
}

export interface CollectOptions {
  /** Walk into symbolic links to folders (a folder is walked once however many links reach it). */
  followSymlinks: boolean;
  maxFileBytes: number;
}

/** A file that was found but is not analysed, and why, in words for the report. */
export interface SkippedFile {
  file: string;
  reason: string;
}

export interface CollectedFiles {
  /** Every analysable file, sorted. */
  files: string[];
  skipped: SkippedFile[];
}

/**
 * Every analysable file under the given paths (files are taken as given). One odd entry never stops
 * the walk: a broken link, a FIFO or device, or a file over the size limit is listed as skipped (a
 * FIFO would block the read forever). Links to folders are not followed unless asked, so a link to
 * `/` or back up the tree cannot send the walk through the whole disk.
 */
export function collectFiles(paths: readonly string[], options: CollectOptions = { followSymlinks: false, maxFileBytes: DEFAULT_MAX_FILE_BYTES }): CollectedFiles {
  for (const path of paths) if (!existsSync(path) && !isLink(path)) throw new MissingPathError(`no such file or directory: ${path}`);
  const found = new Set<string>();
  const skipped = new Map<string, string>();
  const walked = new Set<string>();
  const analysable = (path: string): boolean => ANALYZED_EXTENSIONS.includes(extname(path)) && !/\.d\.[cm]?ts$/.test(path);

  const visit = (path: string, explicit: boolean): void => {
    const own = lstatSync(path);
    let stats: Stats = own;
    if (own.isSymbolicLink()) {
      const target = followedStats(path);
      if (typeof target === "string") {
        skipped.set(path, target);
        return;
      }
      if (target.isDirectory() && !explicit && !options.followSymlinks) return;
      stats = target;
    }
    if (stats.isDirectory()) {
      // Reached twice (a link back up the tree, two links to one folder): walked once.
      const real = realpathSync(path);
      if (walked.has(real)) return;
      walked.add(real);
      for (const entry of readdirSync(path)) if (!SKIPPED_DIRS.has(entry)) visit(join(path, entry), false);
      return;
    }
    if (!explicit && !analysable(path)) return;
    const odd = oddFileReason(stats, options.maxFileBytes);
    if (odd) skipped.set(path, odd);
    else found.add(path);
  };
  for (const path of paths) visit(resolve(path), true);
  return { files: [...found].sort(), skipped: [...skipped].sort(([a], [b]) => (a < b ? -1 : 1)).map(([file, reason]) => ({ file, reason })) };
}

/** Why a file is not read: gone, not a regular file, or over the size limit; undefined when it is read. */
export function oddFileReason(stats: Stats | undefined, maxFileBytes: number): string | undefined {
  if (!stats) return "the file could not be found when the check began";
  if (!stats.isFile()) return `not a regular file (${fileKind(stats)}); only regular files are read`;
  if (stats.size > maxFileBytes) return `${stats.size.toLocaleString("en-US")} bytes is over the size limit of ${formatLimit(maxFileBytes)} (--max-file-size)`;
  return undefined;
}

/** What a link points at, or why it cannot be followed. */
function followedStats(path: string): Stats | string {
  try {
    return statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP") return "a symbolic link that loops back on itself";
    if (code === "ENOENT" || code === "ENOTDIR") return "a broken symbolic link (its target does not exist)";
    return `a symbolic link that cannot be followed (${code ?? String(error)})`;
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function fileKind(stats: Stats): string {
  if (stats.isFIFO()) return "a FIFO";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  if (stats.isDirectory()) return "a folder";
  return "not a file";
}

/** A limit as it was most likely written: `1 MB`, `512 KB`, else in bytes. */
function formatLimit(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes.toLocaleString("en-US")} bytes`;
}
