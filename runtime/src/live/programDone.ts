import type net from "node:net";

/** Requests (not handles) that a pending socket write or connect leaves in the event loop. */
const PENDING_IO = new Set(["WriteWrap", "SimpleWriteWrap", "ShutdownWrap", "PipeConnectWrap", "TCPConnectWrap"]);
/** Resource names of stream handles (the standard streams and the socket itself). */
const HANDLE_TYPES = new Set(["PipeWrap", "TTYWrap", "TCPSocketWrap", "TCPWrap"]);

/** Node's list of live handles (sockets, servers, child processes), an old undocumented API. */
type ProcessWithHandles = NodeJS.Process & { _getActiveHandles?: () => unknown[] };

/**
 * True when all that keeps the event loop alive is pending socket I/O: no timers, no file work,
 * no handles besides this socket and the standard streams (which Node lists but which never hold
 * a process open). The program has then finished but for writes (or a connect) nobody answers. A
 * user's own lone pending write would look the same; the live stream would then merely start its
 * bounded exit drain early. Without the handle list (another runtime) it answers false.
 */
export function onlyPendingIoKeepsAlive(socket: net.Socket): boolean {
  const handles = (process as ProcessWithHandles)._getActiveHandles?.();
  if (!handles) return false;
  // Standard streams are recognised by Node's own mark, not by reading process.stdin (which would create it).
  if (!handles.every((handle) => handle === socket || (handle as { _isStdio?: unknown })._isStdio === true)) return false;
  const others = process.getActiveResourcesInfo().filter((type) => !PENDING_IO.has(type));
  // What is left are the handles checked above (PipeWrap, TTYWrap...), nothing else.
  return others.length <= handles.length && others.every((type) => HANDLE_TYPES.has(type));
}

/** Waits for `work` until `deadline` (epoch ms); true when it finished in time. The timer keeps the process alive meanwhile. */
export async function withinDeadline(work: Promise<void>, deadline: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([work.then(() => true as const), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/** What libuv still holds of the socket's oldest unfinished write, in bytes; undefined where Node does not say. */
export function bytesQueuedInOs(socket: net.Socket): number | undefined {
  const queued = (socket as net.Socket & { _handle?: { writeQueueSize?: unknown } | null })._handle?.writeQueueSize;
  return typeof queued === "number" && queued >= 0 ? queued : undefined;
}
