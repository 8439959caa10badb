import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readlinkSync, readSync, statSync, type Stats } from "node:fs";
import { dirname } from "node:path";
import { NotASignalDatabaseError, SignalStoreMissingError, SignalStorePathError, SignalStoreUnwritableError } from "../errors.js";

/** The first 16 bytes of every SQLite database file. */
const SQLITE_HEADER = Buffer.from("SQLite format 3\0", "latin1");

/**
 * Refuses a path no database file can live at, before SQLite or the lock folders touch it: a
 * named pipe would block the open forever, a `/proc` file makes a folder-creating loop spin, and
 * the rest fail later with a vaguer message. What is accepted: a regular file that is empty or
 * starts with the SQLite header, or (unless `readOnly`) nothing yet, in a folder that exists or
 * can be created. Throws a SignalStoreError subclass naming the path and what is there.
 */
export function checkDatabasePath(path: string, readOnly: boolean): void {
  let link: Stats;
  try {
    link = lstatSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") {
      if (readOnly) throw new SignalStoreMissingError(path, `no signal database at ${path}`);
      return; // nothing there yet: the writer creates it (and its folders)
    }
    if (code === "ENOTDIR") throw new SignalStoreUnwritableError(path, `${path} cannot be created: a part of the path before its name is a file, not a folder`, { cause: error });
    throw new SignalStoreUnwritableError(path, `cannot look at ${path}: ${(error as Error).message}`, { cause: error });
  }
  let target = link;
  if (link.isSymbolicLink()) {
    try {
      target = statSync(path);
    } catch (error) {
      throw new SignalStorePathError(path, `${path} is a symbolic link to ${describeLink(path)}, which does not exist (or cannot be reached); point it at a database file or remove it`, { cause: error });
    }
  }
  const kind = kindOf(target);
  if (kind !== null) {
    const through = link.isSymbolicLink() ? ` (through the symbolic link to ${describeLink(path)})` : "";
    throw new SignalStorePathError(path, `${path} is ${kind}${through}, not a database file`);
  }
  checkContent(path);
}

/** What a non-regular file is, in words; null for a regular file. */
function kindOf(stats: Stats): string | null {
  if (stats.isFile()) return null;
  if (stats.isDirectory()) return "a folder";
  if (stats.isFIFO()) return "a named pipe (FIFO)";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  return "not a regular file";
}

/** A regular file must be empty (a new database) or start with the SQLite header. */
function checkContent(path: string): void {
  let fd: number;
  try {
    // Non-blocking: had the file just been swapped for a named pipe, the open must not wait for a writer.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw new SignalStoreUnwritableError(path, `cannot read ${path}: ${(error as Error).message}`, { cause: error });
  }
  try {
    const stats = fstatSync(fd);
    const kind = kindOf(stats);
    if (kind !== null) throw new SignalStorePathError(path, `${path} is ${kind}, not a database file`);
    const head = Buffer.alloc(SQLITE_HEADER.length);
    let read: number;
    try {
      read = readSync(fd, head, 0, head.length, 0);
    } catch (error) {
      throw new SignalStorePathError(path, `${path} cannot be read as a file (${(error as Error).message}), not a database file`, { cause: error });
    }
    // Re-read the size: a database another process is creating this instant grows from 0 too.
    if (stats.size === 0 && read > 0 && fstatSync(fd).size === 0) {
      throw new SignalStorePathError(path, `${path} reports a size of 0 yet has content: a kernel file (such as those in /proc or /sys), not a database file`);
    }
    if (read > 0 && !(read === head.length && head.equals(SQLITE_HEADER))) {
      throw new NotASignalDatabaseError(path, `${path} is not a SQLite database (it does not start with the SQLite header)`);
    }
  } finally {
    closeSync(fd);
  }
}

function describeLink(path: string): string {
  try {
    return readlinkSync(path);
  } catch {
    return "a missing target";
  }
}

/**
 * Creates the folder of `path` and any missing parents, one level at a time, so each step's error
 * is the real one. (Node's recursive mkdir retries forever where mkdir answers ENOENT under an
 * existing parent, as in /proc.) Throws SignalStoreUnwritableError.
 */
export function makeParentFolder(path: string): void {
  const missing: string[] = [];
  for (let folder = dirname(path); ; folder = dirname(folder)) {
    let stats: Stats | null = null;
    try {
      stats = statSync(folder);
    } catch {
      // Missing (or unreachable): created below, which gives the real error if it cannot be.
    }
    if (stats !== null) {
      if (!stats.isDirectory()) throw new SignalStoreUnwritableError(path, `${path} cannot be created: ${folder} is not a folder`);
      break;
    }
    missing.unshift(folder);
    if (dirname(folder) === folder) break;
  }
  for (const folder of missing) {
    try {
      mkdirSync(folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") continue;
      throw new SignalStoreUnwritableError(path, `cannot create the folder ${folder} for ${path}: ${(error as Error).message}`, { cause: error });
    }
  }
}
