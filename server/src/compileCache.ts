import { mkdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Points the compile cache at another folder (the bench gives each run a fresh one). */
export const COMPILE_CACHE_DIR_ENV = "HOOKLENS_COMPILE_CACHE_DIR";
/** Set to "0" to load the server without a compile cache. */
export const COMPILE_CACHE_ENV = "HOOKLENS_COMPILE_CACHE";

const READY = Symbol.for("hooklens.compileCache.ready");

/**
 * The folder for V8's compiled code of the server bundle, or undefined when none can be used
 * safely. Compiled code is executable, so the folder must belong to this user and be closed to
 * others: a shared temp folder someone else created is never used.
 */
export function compileCacheDir(): string | undefined {
  if (process.env[COMPILE_CACHE_ENV] === "0") return undefined;
  const uid = process.getuid?.();
  const dir = process.env[COMPILE_CACHE_DIR_ENV] || join(tmpdir(), uid === undefined ? "hooklens-compile-cache" : `hooklens-compile-cache-${uid}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = statSync(dir);
    if (uid !== undefined && (stat.uid !== uid || (stat.mode & 0o077) !== 0)) return undefined;
    return dir;
  } catch {
    return undefined; // no writable temp folder: start without a cache
  }
}

/** Lets the loader save the cache once the server has done its first work (so the code of that work is in it). */
export function onFirstWorkDone(save: () => void): void {
  (globalThis as Record<symbol, unknown>)[READY] = save;
}

/** Called by the server after its first analysis: saves the compile cache, off the critical path, once. */
export function firstWorkDone(): void {
  const save = (globalThis as Record<symbol, unknown>)[READY];
  if (typeof save !== "function") return;
  delete (globalThis as Record<symbol, unknown>)[READY];
  setImmediate(save as () => void);
}
