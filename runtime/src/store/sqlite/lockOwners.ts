import { mkdirSync, readdirSync, rmdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { getLogger } from "../../shared/log.js";
import { rollBackHotJournal } from "./hotJournal.js";

/**
 * Stale-lock recovery for node-sqlite3-wasm. Its VFS locks a database by creating the folder
 * `<file>.lock` (mkdir) and unlocks by removing it (rmdir); the lock functions are closed over
 * inside the driver, so nothing can be written into that folder (rmdir would then fail) and a
 * process killed with SIGKILL leaves it behind for good. Instead every HookLens process that
 * opens the file registers itself in `<file>.owners/<host>-<pid>` beforehand and unregisters on
 * close. A lock is stale when no registered process on this host is alive besides the one asking
 * (which is being refused the lock, so it does not hold it), and either a registered owner died
 * or the lock is older than {@link UNOWNED_LOCK_STALE_MS} (a lock nobody registered for).
 */

/** A lock with no registered owner (an older HookLens, another tool) is only broken after this long. */
export const UNOWNED_LOCK_STALE_MS = 30_000;
/** A breaker that died while breaking leaves its own guard folder; it is ignored after this long. */
const BREAKER_STALE_MS = 10_000;

/** This machine's name, as lock owners and waiting turns are filed under it. */
export const host = hostname();
/** Per database path, how many stores of this process have it open. */
const openHere = new Map<string, number>();

function ownersFolder(dbPath: string): string {
  return `${dbPath}.owners`;
}

function ownerName(pid: number): string {
  return `${encodeURIComponent(host)}-${pid}`;
}

/** Registers this process as a user of `dbPath`, before it is opened; returns the function that unregisters it. */
export function registerLockOwner(dbPath: string): () => void {
  const count = openHere.get(dbPath) ?? 0;
  openHere.set(dbPath, count + 1);
  if (count === 0) {
    try {
      // Not recursive: the database's folder exists by now, and Node's recursive mkdir spins
      // forever where mkdir answers ENOENT under an existing parent (as in /proc).
      mkdirOnce(ownersFolder(dbPath));
      writeFileSync(join(ownersFolder(dbPath), ownerName(process.pid)), JSON.stringify({ pid: process.pid, host }));
    } catch {
      // A read-only location: the driver cannot lock there either, so there is nothing to recover.
    }
  }
  let registered = true;
  return () => {
    if (!registered) return;
    registered = false;
    const left = (openHere.get(dbPath) ?? 1) - 1;
    if (left > 0) {
      openHere.set(dbPath, left);
      return;
    }
    openHere.delete(dbPath);
    rmSync(join(ownersFolder(dbPath), ownerName(process.pid)), { force: true });
  };
}

/**
 * Removes `<dbPath>.lock` when it was left by a dead process (see the module comment); true when
 * it did. Called by a store that was refused the lock; never throws.
 */
export function breakStaleLock(dbPath: string): boolean {
  const lock = `${dbPath}.lock`;
  const lockAge = ageMs(lock);
  if (lockAge === null) return false;
  const guard = `${dbPath}.lock-breaking`;
  if (!takeGuard(guard)) return false;
  try {
    // Decided under the guard, so two breakers cannot both remove a lock a live writer just took.
    const owners = inspectOwners(dbPath);
    if (owners.live > 0) return false;
    if (owners.dead === 0 && lockAge < UNOWNED_LOCK_STALE_MS) return false;
    // While the dead writer's lock still keeps every connection out: what it left half-written.
    rollBackHotJournal(dbPath);
    rmdirSync(lock);
    getLogger().warn(`HookLens removed the stale SQLite lock ${lock} (its owner process is gone)`);
    return true;
  } catch {
    return false;
  } finally {
    rmSync(guard, { recursive: true, force: true });
  }
}

/** Counts registered owners still alive (other than this process, unless it has the file open twice) and removes dead ones. */
function inspectOwners(dbPath: string): { live: number; dead: number } {
  const folder = ownersFolder(dbPath);
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return { live: 0, dead: 0 };
  }
  let live = 0;
  let dead = 0;
  for (const name of names) {
    const dash = name.lastIndexOf("-");
    const ownerHost = decodeURIComponent(name.slice(0, dash));
    const pid = Number(name.slice(dash + 1));
    if (ownerHost !== host || !Number.isSafeInteger(pid) || pid <= 0) {
      // A process on another machine (shared folder) cannot be checked: assume it is alive.
      live++;
    } else if (pid === process.pid) {
      // The asker was refused the lock; another store of this same process may hold it.
      if ((openHere.get(dbPath) ?? 0) > 1) live++;
    } else if (isAlive(pid)) {
      live++;
    } else {
      dead++;
      rmSync(join(folder, name), { force: true });
    }
  }
  return { live, dead };
}

/** Whether process `pid` of this machine still runs. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Creates `folder` (its parent must exist); an existing one is fine. */
export function mkdirOnce(folder: string): void {
  try {
    mkdirSync(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
}

function takeGuard(guard: string): boolean {
  try {
    mkdirSync(guard);
    return true;
  } catch {
    const age = ageMs(guard);
    if (age === null || age < BREAKER_STALE_MS) return false;
    rmSync(guard, { recursive: true, force: true });
    try {
      mkdirSync(guard);
      return true;
    } catch {
      return false;
    }
  }
}

function ageMs(path: string): number | null {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return null;
  }
}
