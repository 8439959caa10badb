import { dirname, basename, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** A place in the program's source: where a tool was defined or a hook registered. */
export interface SourceLocation {
  readonly file: string;
  /** 1-based. */
  readonly line: number;
  /** 1-based. */
  readonly column: number;
}

/** Frames kept when a site is captured: the runtime's own frames come first, the caller's after them. */
const FRAMES = 24;
const sites = new WeakMap<object, SourceLocation>();
/** `at fn (file:line:col)` or `at file:line:col`: the location part of a V8 stack line. */
const FRAME = /^\s*at (?:.*? \()?(.+?):(\d+):(\d+)\)?$/;

/**
 * The directory holding the runtime's own code, read from this module's own frame: `src/` for
 * the sources (this file sits in `src/shared/`), the bundle's folder for the built files (the
 * ESM build puts shared code in `chunks/`). Frames under it are the runtime's, never the user's.
 */
const RUNTIME_DIR = ((): string | null => {
  const own = frameFile(new Error().stack?.split("\n")[1] ?? "");
  if (own === null) return null;
  const folder = dirname(own);
  return (basename(folder) === "shared" || basename(folder) === "chunks" ? dirname(folder) : folder) + sep;
})();

/**
 * Remembers where `target` (a Tool, a hook handler, a gate) was defined: the first frame of the
 * current stack outside the runtime, read once here so that signals naming the target later
 * only look it up. Nothing is remembered when the stack holds no such frame. The first site
 * noted for a target stays (a handler registered twice keeps its first registration).
 */
export function noteDefinitionSite(target: object): void {
  if (sites.has(target)) return;
  const site = callerSite();
  if (site !== null) sites.set(target, site);
}

/** Where `target` was defined, if {@link noteDefinitionSite} saw it; null otherwise. */
export function definitionSiteOf(target: unknown): SourceLocation | null {
  return (typeof target === "object" && target !== null) || typeof target === "function" ? (sites.get(target as object) ?? null) : null;
}

/** The first frame of the current stack outside the runtime (and outside Node's own code). */
function callerSite(): SourceLocation | null {
  if (RUNTIME_DIR === null) return null;
  const limit = Error.stackTraceLimit;
  const holder: { stack?: string } = {};
  try {
    Error.stackTraceLimit = FRAMES;
    Error.captureStackTrace(holder, callerSite);
  } finally {
    Error.stackTraceLimit = limit;
  }
  const lines = typeof holder.stack === "string" ? holder.stack.split("\n") : [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    const match = FRAME.exec(line);
    if (!match) continue;
    const file = toPath(match[1]!);
    if (file === null || file.startsWith(RUNTIME_DIR) || file.startsWith("node:") || !isAbsolutePath(file)) continue;
    return { file, line: Number(match[2]), column: Number(match[3]) };
  }
  return null;
}

function frameFile(line: string): string | null {
  const match = FRAME.exec(line);
  return match ? toPath(match[1]!) : null;
}

function toPath(location: string): string | null {
  if (!location.startsWith("file://")) return location;
  try {
    return fileURLToPath(location);
  } catch {
    return null;
  }
}

function isAbsolutePath(file: string): boolean {
  return file.startsWith("/") || /^[A-Za-z]:[\\/]/.test(file) || file.startsWith("\\\\");
}
