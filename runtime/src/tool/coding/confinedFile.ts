import { constants } from "node:fs";
import { lstat, mkdir, open, realpath, type FileHandle } from "node:fs/promises";
import path from "node:path";
import { isWithin } from "../paths.js";
import { OutsideWorkspaceError, type Workspace } from "./workspace.js";

/** Linux names every open descriptor here; reading its link gives where the descriptor really is. */
const FD_DIR = "/proc/self/fd";

/**
 * Opens `target` (already resolved by {@link Workspace.resolve}) so that what is opened is
 * inside the workspace at the moment of the operation: the last component is never followed
 * (O_NOFOLLOW), and the descriptor's real path is checked after opening, so a file or folder
 * swapped for a symlink between the check and the open is refused instead of read or written.
 */
export async function openConfined(workspace: Workspace, target: string, flags: number, mode?: number): Promise<FileHandle> {
  const handle = await open(target, flags | OPEN_FLAGS, mode).catch((error: unknown) => refuseSymlink(workspace, target, error));
  return keepIfConfined(workspace, handle, target);
}

/**
 * Never follow the last component; never wait: a FIFO opens at once (or fails with ENXIO for
 * writing) instead of blocking a thread of the file pool until someone opens its other end.
 */
const OPEN_FLAGS = constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** A FIFO, socket or device: the tools only read and write regular files and list folders. */
export class NotARegularFileError extends Error {
  override name = "NotARegularFileError";
}

/**
 * `handle` when the file it opened really lies in the workspace and is a regular file or a
 * folder; otherwise it is closed and the open refused.
 */
async function keepIfConfined(workspace: Workspace, handle: FileHandle, target: string): Promise<FileHandle> {
  try {
    const real = await descriptorPath(handle, target);
    if (!isWithin(real, workspace.root)) throw new OutsideWorkspaceError(`Path is outside the workspace: ${workspace.relative(target)}`);
    const info = await handle.stat();
    if (!info.isFile() && !info.isDirectory()) throw new NotARegularFileError(`Not a regular file or folder: ${workspace.relative(target)}`);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * `mkdir -p` for `dir` (inside the workspace, already resolved), one level at a time: each level is
 * created through its parent's checked descriptor (on Linux, `/proc/self/fd/N/name`, as `mkdirat`
 * would) and then opened without following a link and checked again before the next level. A
 * parent swapped for a symlink between two steps is refused; nothing is created outside. Without
 * /proc the level is created by path and checked right after, so a swap can leave at most one
 * empty folder behind before the refusal.
 */
export async function makeDirectoriesConfined(workspace: Workspace, dir: string): Promise<void> {
  const relative = path.relative(workspace.root, dir);
  if (relative === "") return;
  let parent = await openConfined(workspace, workspace.root, constants.O_RDONLY | constants.O_DIRECTORY);
  let current = workspace.root;
  try {
    for (const name of relative.split(path.sep)) {
      current = path.join(current, name);
      const viaParent = await childPath(parent, current);
      await mkdir(viaParent).catch((error: unknown) => {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      });
      const child = await openChild(workspace, parent, current, constants.O_RDONLY | constants.O_DIRECTORY);
      await parent.close();
      parent = child;
    }
  } finally {
    await parent.close();
  }
}

/** `target`'s entry in the folder `parent` has open: through the descriptor where /proc names it. */
async function childPath(parent: FileHandle, target: string): Promise<string> {
  return (await hasFdDir()) ? path.join(FD_DIR, String(parent.fd), path.basename(target)) : target;
}

/** Opens `target`, the child of the open folder `parent`, through that descriptor, and checks it. */
async function openChild(workspace: Workspace, parent: FileHandle, target: string, flags: number, mode?: number): Promise<FileHandle> {
  const handle = await open(await childPath(parent, target), flags | OPEN_FLAGS, mode).catch((error: unknown) => refuseSymlink(workspace, target, error));
  return keepIfConfined(workspace, handle, target);
}

/**
 * Creates or truncates-and-writes a file through its already-checked parent folder's descriptor,
 * so neither a parent swapped for a symlink nor a last component that became one can redirect
 * the write outside the workspace.
 */
export async function openForWrite(workspace: Workspace, target: string, create: boolean): Promise<FileHandle> {
  const parent = await openConfined(workspace, path.dirname(target), constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    return await openChild(workspace, parent, target, constants.O_WRONLY | (create ? constants.O_CREAT : 0), 0o666);
  } finally {
    await parent.close();
  }
}

/**
 * O_NOFOLLOW fails with ELOOP (ENOTDIR with O_DIRECTORY) when the last component is a symlink,
 * which here means it became one after the check: that is refused as leaving the workspace.
 */
async function refuseSymlink(workspace: Workspace, target: string, error: unknown): Promise<never> {
  const code = (error as NodeJS.ErrnoException).code;
  // A FIFO opened for writing without waiting, and nobody reading it.
  if (code === "ENXIO") throw new NotARegularFileError(`Not a regular file or folder: ${workspace.relative(target)}`);
  if (code === "ELOOP" || code === "ENOTDIR") {
    const isLink = await lstat(target).then((info) => info.isSymbolicLink(), () => false);
    if (isLink) throw new OutsideWorkspaceError(`Path became a symlink after it was checked: ${workspace.relative(target)}`);
  }
  throw error;
}

/**
 * The path a directory descriptor can be listed through or started in: its /proc link on Linux
 * (a process that changes into it lands in that very folder, even if its path was swapped since),
 * else the checked path.
 */
export async function listablePath(handle: FileHandle, fallback: string): Promise<string> {
  return (await hasFdDir()) ? path.join(FD_DIR, String(handle.fd)) : fallback;
}

async function descriptorPath(handle: FileHandle, fallback: string): Promise<string> {
  if (await hasFdDir()) return realpath(path.join(FD_DIR, String(handle.fd)));
  // Without /proc, re-resolve the path and require it to still be the same file as the descriptor.
  const real = await realpath(fallback);
  const [opened, now] = await Promise.all([handle.stat(), open(real, constants.O_RDONLY).then(async (h) => h.stat().finally(() => h.close()))]);
  if (opened.dev !== now.dev || opened.ino !== now.ino) throw new OutsideWorkspaceError(`Path changed while it was opened: ${fallback}`);
  return real;
}

let fdDir: Promise<boolean> | undefined;
function hasFdDir(): Promise<boolean> {
  fdDir ??= realpath(FD_DIR).then(
    () => true,
    () => false,
  );
  return fdDir;
}
