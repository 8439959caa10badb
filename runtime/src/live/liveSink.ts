import { DropReport } from "../session/pipeline/dropReport.js";
import type { EncodedSignal } from "../session/pipeline/encodedSignal.js";
import type { SignalSink } from "../session/pipeline/sink.js";
import { requireInstance } from "../shared/arguments.js";
import { LiveConnection } from "./connection.js";
import { LineBuffer } from "./lineBuffer.js";
import { MAX_FRAME_BYTES } from "./frames.js";

/**
 * The live stream as a sink: a flushed batch becomes `signal` frames built around the payload
 * JSON every sink shares (no second serialisation), encoded into chunks of UTF-8 bytes.
 */
export class LiveSink implements SignalSink {
  readonly #connection: LiveConnection;
  readonly #report = new DropReport("the editor's live stream");
  /** Per session id, its JSON string, made once. */
  readonly #sessionJson = new Map<string, string>();

  constructor(connection: LiveConnection) {
    this.#connection = requireInstance(connection, LiveConnection, "a LiveConnection", "new LiveSink(connection)", "connection");
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
      this.#report.count(oversized, new Error(`a signal's frame is larger than ${MAX_FRAME_BYTES} bytes`));
    }
    const unsent = lines.lineCount > 0 ? this.#connection.sendChunks(lines.chunks()) : 0;
    if (unsent > 0) this.#report.count(unsent, new Error("the editor is not reading fast enough (pending-work bound reached) or is gone"));
    if (oversized + unsent > 0) this.#report.report();
  }

  flush(): Promise<void> {
    return this.#connection.flush();
  }

  /** Closes the stream (bounded, see LiveConnection.close) and reports what the editor never received. */
  async close(): Promise<void> {
    const before = this.#connection.droppedTotal;
    await this.#connection.close();
    const lost = this.#connection.droppedTotal - before;
    if (lost > 0) {
      this.#report.count(lost, new Error("the editor did not read them before the program exited"));
      this.#report.report();
    }
  }
}

function finite(value: number): string {
  return Number.isFinite(value) ? String(value) : "0";
}
