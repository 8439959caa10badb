import { readFileSync, statSync } from "node:fs";
import type { FileStamp } from "./stampedLists.js";

/** A file's text; undefined when it is gone or unreadable (nothing to say about it then). */
export function readTextIfAny(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/** A file's mtime and size, which tell a changed file from an unchanged one without reading it; undefined when it is gone. */
export function fileStampOf(path: string): FileStamp | undefined {
  try {
    const { mtimeMs, size } = statSync(path);
    return { mtimeMs, size };
  } catch {
    return undefined;
  }
}
