import { mkdirSync, renameSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { whenIdle } from "./whenIdle.js";

/** Points the compile cache at another folder (the bench gives each run a fresh one). */
export const COMPILE_CACHE_DIR_ENV = "HOOKLENS_COMPILE_CACHE_DIR";
/** Set to "0" to load the server without a compile cache. */
export const COMPILE_CACHE_ENV = "HOOKLENS_COMPILE_CACHE";

/** How long the server must be quiet before it writes the cache (a test sets it high to see the exit path). */
export const COMPILE_CACHE_IDLE_MS_ENV = "HOOKLENS_COMPILE_CACHE_IDLE_MS";
const IDLE_WINDOW_MS = 200;

/** Shared by the loader's bundle and the server's (each bundles this module): the write to come, and whether it happened. */
const STATE = Symbol.for("hooklens.compileCache.write");
interface WriteState {
  /** Until the write is scheduled. */
  save?: () => void;
  written: boolean;
}

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

/** Writes a file of the cache folder, readable by this user only, whole or not at all (a server starting meanwhile reads the old one or the new one). */
export function writePrivateFile(file: string, data: string | Uint8Array): void {
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, data, { mode: 0o600 });
  renameSync(partial, file);
}

/** Lets the loader save the cache once the server has done its first work (so the code of that work is in it). */
export function onFirstWorkDone(save: () => void): void {
  (globalThis as Record<symbol, WriteState | undefined>)[STATE] = { save, written: false };
}

/**
 * Called by the server after its first analysis: saves the compile cache once, when the server is
 * next idle. Writing it (~0.1–0.2 s of CPU for V8 to serialise the code) right away delayed the
 * first diagnostics, which leave through the JSON-RPC writer's own queue after this returns.
 */
export function firstWorkDone(): void {
  const state = (globalThis as Record<symbol, WriteState | undefined>)[STATE];
  const save = state?.save;
  if (!state || !save) return;
  state.save = undefined;
  whenIdle(() => {
    save();
    state.written = true;
  }, Number(process.env[COMPILE_CACHE_IDLE_MS_ENV]) || IDLE_WINDOW_MS);
}

/** For the bench: "none" when this process has no cache to write (it loaded one, or caching is off), else whether it wrote it yet. */
export function compileCacheWrite(): "none" | "pending" | "written" {
  const state = (globalThis as Record<symbol, WriteState | undefined>)[STATE];
  return state ? (state.written ? "written" : "pending") : "none";
}
