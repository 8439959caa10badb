import { DropReport } from "../session/pipeline/dropReport.js";
import type { EncodedSignal } from "../session/pipeline/encodedSignal.js";
import type { SignalSink } from "../session/pipeline/sink.js";
import { requireInstance } from "../shared/arguments.js";
import { getLogger } from "../shared/log.js";
import { LiveConnection } from "./connection.js";
import { LineBuffer } from "./lineBuffer.js";
import { MAX_FRAME_BYTES } from "./frames.js";
import { describeLiveFailure } from "./unavailable.js";

/**
 * The live stream as a sink: a flushed batch becomes `signal` frames built around the payload
 * JSON every sink shares (no second serialisation), encoded into chunks of UTF-8 bytes. What the
 * editor never gets is said on stderr: drops in one line per batch at most, and a stream that
 * cannot reach the editor in one line for the whole run, with how to fix it.
 */
export class LiveSink implements SignalSink {
  readonly #connection: LiveConnection;
  readonly #report = new DropReport("the editor's live stream");
  /** Per session id, its JSON string, made once. */
  readonly #sessionJson = new Map<string, string>();
  /** The connection's drop total already counted in the report. */
  #counted = 0;
  /** Set once the stream went dark and said so: what follows is not streamed, and not reported line by line. */
  #dark = false;

  constructor(connection: LiveConnection, endpoint = "the editor") {
    this.#connection = requireInstance(connection, LiveConnection, "a LiveConnection", "new LiveSink(connection)", "connection");
    connection.onFailure((failure) => {
      this.#dark = true;
      this.#counted = connection.droppedTotal;
      try {
        getLogger().warn(describeLiveFailure(endpoint, failure));
      } catch {
        // A failing logger must not break the signal path.
      }
    });
  }

  write(sessionId: string, batch: readonly EncodedSignal[]): void {
    let sessionJson = this.#sessionJson.get(sessionId);
    if (sessionJson === undefined) {
      sessionJson = JSON.stringify(sessionId);
      this.#sessionJson.set(sessionId, sessionJson);
    }
    const lines = new LineBuffer();
    let oversized = 0;
    for (const signal of batch) {
      const head =
        `{"type":"signal","sessionId":${sessionJson},"branchId":${signal.branchId === null ? "null" : JSON.stringify(signal.branchId)}` +
        `,"id":${JSON.stringify(signal.id)},"kind":${JSON.stringify(signal.kind)},"createdAt":${finite(signal.createdAt)},"payload":`;
      // The payload is capped at 16 KiB; only a huge id or branch id could push a line past the limit.
      if (!lines.append(head, signal.payloadJson, "}", MAX_FRAME_BYTES)) oversized++;
    }
    if (oversized > 0) {
      this.#connection.countDropped(oversized);
      this.#count(new Error(`a signal's frame is larger than ${MAX_FRAME_BYTES} bytes`));
    }
    if (lines.lineCount > 0) this.#connection.sendChunks(lines.chunks());
    this.#count(new Error("the editor is not reading fast enough (pending-work bound reached) or is gone"));
    this.#report.report();
  }

  flush(): Promise<void> {
    return this.#connection.flush();
  }

  /** Closes the stream (bounded, see LiveConnection.close) and reports what the editor never received. */
  async close(): Promise<void> {
    await this.#connection.close();
    this.#count(new Error("the editor did not read them before the program exited"));
    this.#report.report();
  }

  /** The process is exiting now: counts what the editor never received and says so in one line, synchronously. */
  closeAtExit(): void {
    this.#connection.abandonAtExit();
    this.#count(new Error("the program exited before the editor read them"));
    this.#report.report(true);
  }

  /** Counts the connection's drops since the last count, unless the stream is dark (already said once). */
  #count(reason: Error): void {
    const total = this.#connection.droppedTotal;
    if (!this.#dark) this.#report.count(total - this.#counted, reason);
    this.#counted = total;
  }
}

function finite(value: number): string {
  return Number.isFinite(value) ? String(value) : "0";
}
