import { createHash } from "node:crypto";
import { readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { compileCacheDir, writePrivateFile } from "./compileCache.js";
import { whenIdle } from "./whenIdle.js";

const SUFFIX = ".lists";
/** Saved lists of one kind kept in the folder (one per project root; the least recently saved go first). */
const MOST_FILES = 32;
/** Quiet time before a changed list is saved. */
const IDLE_WINDOW_MS = 200;

/** What {@link savedLists} keeps: made from the saved text (undefined when none), saved as `toText()` says. */
export interface SavableList {
  toText(): string;
}

/**
 * A list of the project at `root` kept between starts in the compile cache's folder (this user's,
 * closed to others; none when that folder cannot be used safely or caching is off), one file per
 * project and `prefix`. A list is data: it names files and modules, never code to run. A file
 * another user could have written is ignored (`make` gets no text), as is, by `make`, one that does
 * not parse as a list. `make`'s `onChange` saves the list when the server is idle (or at exit),
 * written whole or not at all.
 */
export function savedLists<L extends SavableList>(prefix: string, root: string, make: (text: string | undefined, onChange: () => void) => L): L | undefined {
  const dir = compileCacheDir();
  if (!dir) return undefined;
  const file = join(dir, `${prefix}${createHash("sha1").update(root).digest("hex")}${SUFFIX}`);
  const list: L = make(readOwn(file), () => whenIdle(() => save(prefix, file, list.toText()), IDLE_WINDOW_MS));
  return list;
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

function save(prefix: string, file: string, text: string): void {
  try {
    writePrivateFile(file, text);
    const dir = dirname(file);
    const saved = readdirSync(dir)
      .filter((name) => name.startsWith(prefix) && name.endsWith(SUFFIX))
      .map((name) => ({ path: join(dir, name), mtimeMs: statSync(join(dir, name)).mtimeMs }))
      .sort((a, b) => b.mtimeMs - a.mtimeMs);
    for (const old of saved.slice(MOST_FILES)) rmSync(old.path, { force: true });
  } catch {
    // a full disk or a read-only temp folder: the next start reads the files again
  }
}
