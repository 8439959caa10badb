import { sanitizeSignalPayload } from "../session/serialize.js";
import type { Signal } from "../session/signal.js";
import { LiveConnection } from "./connection.js";
import { LIVE_ENV, parseLiveEnv } from "./frames.js";

/** undefined: not looked up yet; null: live streaming is off for this process. */
let connection: LiveConnection | null | undefined;

function liveConnection(): LiveConnection | null {
  if (connection === undefined) {
    const endpoint = parseLiveEnv(process.env[LIVE_ENV]);
    connection = endpoint ? new LiveConnection(endpoint) : null;
    if (connection) {
      const live = connection;
      // The socket is unref'd; when the program runs out of work, send what is left and `bye`.
      process.once("beforeExit", () => void live.close());
    }
  }
  return connection;
}

/** Streams one recorded signal to the editor when {@link LIVE_ENV} is set; a no-op otherwise. */
export function publishSignal(sessionId: string, signal: Signal): void {
  const live = liveConnection();
  if (!live) return;
  const branchId = signal.metadata["branchId"];
  live.send({
    type: "signal",
    sessionId,
    branchId: typeof branchId === "string" ? branchId : null,
    id: signal.id,
    kind: signal.constructor.name,
    createdAt: signal.createdAt,
    payload: sanitizeSignalPayload(signal),
  });
}

/** Waits until every signal published so far was handed to the editor's socket. */
export function flushLive(): Promise<void> {
  return connection ? connection.flush() : Promise.resolve();
}

/** Test hook: forget the connection so the next publish reads {@link LIVE_ENV} again. */
export function resetLiveForTests(): void {
  connection = undefined;
}
