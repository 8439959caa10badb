import { constants } from "node:fs";
import { lstat, open, realpath, type FileHandle } from "node:fs/promises";
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
  const handle = await open(target, flags | constants.O_NOFOLLOW, mode).catch((error: unknown) => refuseSymlink(workspace, target, error));
  return keepIfConfined(workspace, handle, target);
}

/** `handle` when the file it opened really lies in the workspace; otherwise it is closed and the open refused. */
async function keepIfConfined(workspace: Workspace, handle: FileHandle, target: string): Promise<FileHandle> {
  try {
    const real = await descriptorPath(handle, target);
    if (!isWithin(real, workspace.root)) throw new OutsideWorkspaceError(`Path is outside the workspace: ${workspace.relative(target)}`);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * Creates or truncates-and-writes a file through its already-checked parent folder's descriptor,
 * so neither a parent swapped for a symlink nor a last component that became one can redirect
 * the write outside the workspace.
 */
export async function openForWrite(workspace: Workspace, target: string, create: boolean): Promise<FileHandle> {
  const parent = await openConfined(workspace, path.dirname(target), constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    const viaParent = (await hasFdDir()) ? path.join(FD_DIR, String(parent.fd), path.basename(target)) : target;
    const flags = constants.O_WRONLY | (create ? constants.O_CREAT : 0);
    const handle = await open(viaParent, flags | constants.O_NOFOLLOW, 0o666).catch((error: unknown) => refuseSymlink(workspace, target, error));
    return await keepIfConfined(workspace, handle, target);
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
  if (code === "ELOOP" || code === "ENOTDIR") {
    const isLink = await lstat(target).then((info) => info.isSymbolicLink(), () => false);
    if (isLink) throw new OutsideWorkspaceError(`Path became a symlink after it was checked: ${workspace.relative(target)}`);
  }
  throw error;
}

/** The path a directory descriptor can be listed through: its /proc link on Linux, else the checked path. */
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
