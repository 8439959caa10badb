import { createHash } from "node:crypto";
import { readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { ImportLists } from "./analyzer/reach/importLists.js";
import { compileCacheDir, writePrivateFile } from "./compileCache.js";
import { whenIdle } from "./whenIdle.js";

const PREFIX = "imports-";
const SUFFIX = ".lists";
/** Saved lists kept in the folder (one per project root; the least recently saved go first). */
const MOST_FILES = 32;
/** Quiet time before a changed list is saved. */
const IDLE_WINDOW_MS = 200;

/**
 * The import lists of the project at `root`, kept between starts in the compile cache's folder (this
 * user's, closed to others; none when that folder cannot be used safely or caching is off). A list
 * is data: it names modules to resolve and read, never code to run. A file another user could have
 * written, or one that does not parse as a list, is ignored. A changed list is saved when the server
 * is idle (or at exit).
 */
export function savedImportLists(root: string): ImportLists | undefined {
  const dir = compileCacheDir();
  if (!dir) return undefined;
  const file = join(dir, `${PREFIX}${createHash("sha1").update(root).digest("hex")}${SUFFIX}`);
  const lists: ImportLists = ImportLists.read(root, readOwn(file), () => whenIdle(() => save(file, lists.toText()), IDLE_WINDOW_MS));
  return lists;
}

/** The file's text when this user owns it and no one else may write it. */
function readOwn(file: string): string | undefined {
  try {
    const stat = statSync(file);
    const uid = process.getuid?.();
    if ((uid !== undefined && stat.uid !== uid) || (stat.mode & 0o022) !== 0) return undefined;
    return readFileSync(file, "utf8");
  } catch {
    return undefined; // none saved yet
  }
}

function save(file: string, text: string): void {
  try {
    writePrivateFile(file, text);
    const dir = dirname(file);
    const saved = readdirSync(dir)
      .filter((name) => name.startsWith(PREFIX) && name.endsWith(SUFFIX))
      .map((name) => ({ path: join(dir, name), mtimeMs: statSync(join(dir, name)).mtimeMs }))
      .sort((a, b) => b.mtimeMs - a.mtimeMs);
    for (const old of saved.slice(MOST_FILES)) rmSync(old.path, { force: true });
  } catch {
    // a full disk or a read-only temp folder: the next start lists the files again
  }
}
