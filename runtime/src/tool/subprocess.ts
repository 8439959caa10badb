import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { requireObject, requirePositive, requireStrings } from "../shared/arguments.js";

export interface RunArgvOptions {
  cwd?: string;
  /** Kill the process (and its process group) after this many milliseconds. */
  timeoutMs: number;
  env?: NodeJS.ProcessEnv;
  /** Written to stdin, then stdin is closed. */
  input?: string;
  /** Output beyond this many bytes per stream is dropped and marked truncated (default 1 MiB). */
  maxOutputBytes?: number;
}

export interface RunArgvResult {
  /** The exit code, or null when the process was killed or never started. */
  returnCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  truncated: boolean;
  /** Set when the process could not be started (e.g. ENOENT). */
  spawnError: Error | null;
}

const DEFAULT_MAX_OUTPUT = 1024 * 1024;

/**
 * Runs a program from an argv list — never through a shell, so no word of it is interpreted —
 * with a hard timeout. On POSIX the child leads its own process group and a timeout kills the
 * whole group. Never rejects: failures are reported in the result. A wrong argument (not an argv
 * list of strings, no positive `timeoutMs`) is a caller's mistake and throws at once.
 */
export function runArgv(argv: readonly string[], options: RunArgvOptions): Promise<RunArgvResult> {
  const where = "runArgv(argv, options)";
  requireStrings(argv, where, "argv");
  requireObject(options, where, "options");
  requirePositive(options.timeoutMs, where, "options.timeoutMs");
  const maxBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
  return new Promise((resolve) => {
    if (argv.length === 0 || !argv[0]) {
      resolve({ returnCode: null, stdout: "", stderr: "", timedOut: false, truncated: false, spawnError: new Error("empty argv") });
      return;
    }
    const posix = process.platform !== "win32";
    let child: ChildProcessWithoutNullStreams;
    try {
      child = spawn(argv[0], argv.slice(1), {
        cwd: options.cwd,
        env: options.env ?? process.env,
        shell: false,
        detached: posix,
        stdio: ["pipe", "pipe", "pipe"],
        windowsHide: true,
      });
    } catch (error) {
      resolve({ returnCode: null, stdout: "", stderr: "", timedOut: false, truncated: false, spawnError: asError(error) });
      return;
    }
    const out = collector(maxBytes);
    const err = collector(maxBytes);
    let timedOut = false;
    let spawnError: Error | null = null;
    const timer = setTimeout(() => {
      timedOut = true;
      kill(child.pid, posix, () => child.kill("SIGKILL"));
      // A descendant that left the group may hold the pipes open; do not wait on it for long.
      setTimeout(() => finish(null), 1_000).unref();
    }, options.timeoutMs);
    const finish = (code: number | null): void => {
      clearTimeout(timer);
      resolve({
        returnCode: timedOut || spawnError ? null : code,
        stdout: out.text(),
        stderr: err.text(),
        timedOut,
        truncated: out.truncated() || err.truncated(),
        spawnError,
      });
    };
    child.stdout.on("data", out.add);
    child.stderr.on("data", err.add);
    child.stdin.on("error", () => undefined); // the program may exit without reading its input
    child.on("error", (error) => {
      spawnError = error;
      if (child.pid === undefined) finish(null); // never started: no "close" is guaranteed
    });
    child.on("close", finish);
    child.stdin.end(options.input ?? "");
  });
}

function kill(pid: number | undefined, group: boolean, fallback: () => void): void {
  try {
    if (group && pid !== undefined) process.kill(-pid, "SIGKILL");
    else fallback();
  } catch {
    fallback();
  }
}

function collector(maxBytes: number): { add: (chunk: Buffer) => void; text: () => string; truncated: () => boolean } {
  const chunks: Buffer[] = [];
  let size = 0;
  let dropped = false;
  return {
    add: (chunk: Buffer) => {
      if (size >= maxBytes) {
        dropped = true;
        return;
      }
      const room = maxBytes - size;
      if (chunk.length > room) dropped = true;
      const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
      chunks.push(kept);
      size += kept.length;
    },
    text: () => Buffer.concat(chunks).toString("utf8"),
    truncated: () => dropped,
  };
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
