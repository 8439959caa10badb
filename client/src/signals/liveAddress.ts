import { createHash, randomBytes } from "node:crypto";
import { lstatSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Where the live server listens, and the token a program must present. */
export interface LiveAddress {
  readonly endpoint: string;
  readonly token: string;
  /** The private folder holding the socket (none for a named pipe). */
  readonly folder: string | null;
  /** True when the address outlives a window reload (the folder and socket are left for the next window). */
  readonly stable: boolean;
}

/** A fresh token: 16 random bytes as hex, the form HOOKLENS_LIVE carries. */
export function newLiveToken(): string {
  return randomBytes(16).toString("hex");
}

/** A new address no other window uses: a new private temporary folder (or pipe name) and a new token. */
export function freshLiveAddress(): LiveAddress {
  const token = newLiveToken();
  if (process.platform === "win32") return { endpoint: `\\\\.\\pipe\\hooklens-${randomBytes(8).toString("hex")}`, token, folder: null, stable: false };
  const folder = mkdtempSync(join(tmpdir(), "hooklens-"));
  return { endpoint: join(folder, "live.sock"), token, folder, stable: false };
}

/**
 * The same address for the same workspace every time: a private folder named after the user and
 * a hash of `workspaceKey`, and the token kept for the workspace. Terminals opened before a window
 * reload keep the HOOKLENS_LIVE they were given; with this address it still reaches the editor.
 * Throws when the folder exists but is not a private folder of this user (then use a fresh one).
 */
export function stableLiveAddress(workspaceKey: string, token: string, parent = tmpdir()): LiveAddress {
  const hash = createHash("sha256").update(workspaceKey).digest("hex").slice(0, 16);
  if (process.platform === "win32") return { endpoint: `\\\\.\\pipe\\hooklens-${hash}`, token, folder: null, stable: true };
  const uid = process.getuid?.() ?? 0;
  const folder = join(parent, `hooklens-${uid}-${hash}`);
  try {
    mkdirSync(folder, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const stat = lstatSync(folder);
  if (!stat.isDirectory() || stat.isSymbolicLink()) throw new Error(`${folder} is not a folder`);
  if (stat.uid !== uid) throw new Error(`${folder} belongs to another user`);
  if ((stat.mode & 0o077) !== 0) throw new Error(`${folder} is open to other users (mode ${(stat.mode & 0o777).toString(8)})`);
  return { endpoint: join(folder, "live.sock"), token, folder, stable: true };
}
