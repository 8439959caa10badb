import net from "node:net";
import { programName } from "../shared/program.js";
import { signalSettings } from "../session/pipeline/signalSettings.js";
import { requireString } from "../shared/arguments.js";
import { getLogger } from "../shared/log.js";
import { LineBacklog } from "./backlog.js";
import { FlushWaits } from "./flushWaits.js";
import { checkLiveEndpoint, LIVE_PROTOCOL_VERSION, MAX_FRAME_BYTES, type LiveEndpoint, type LiveFrame } from "./frames.js";
import { recycleChunk, type LineChunk } from "./lineBuffer.js";
import { bytesQueuedInOs, onlyPendingIoKeepsAlive, withinDeadline } from "./programDone.js";
import { liveFailure, type LiveFailure } from "./unavailable.js";
import { WritesInFlight } from "./writesInFlight.js";

type State = "connecting" | "open" | "closed";

/** Most bytes handed to the socket in one write; the rest waits in the connection's own backlog. */
const MAX_WRITE_BYTES = 256 * 1024;
/** Writes in flight at once: two, so the next is queued while the editor reads the first. */
const MAX_WRITES_IN_FLIGHT = 2;
/** How often a connection with work pending checks whether the rest of the program has finished. */
const STALL_CHECK_MS = 100;
/**
 * How long an awaited flush() waits for an editor that reads nothing at all, counted from the call
 * or from the editor's last read, whichever is later. Generous, because a loaded machine can
 * starve the editor for a while; short enough that an editor paused in a debugger does not hold
 * the program for long. docs/runtime/session.md states this figure.
 */
export const AWAITED_FLUSH_STALL_MS = 5_000;

/**
 * A best-effort NDJSON stream to the editor. It never throws into the caller and never keeps
 * the process alive on its own. Lines wait in a backlog, from which at most two writes of at
 * most {@link MAX_WRITE_BYTES} are in flight (a socket given everything at once writes it in one
 * huge request, which shows no progress until the editor read all of it); backlog and
 * in-flight write together are bounded by the signal settings' `maxPendingBytes`. Whatever does
 * not fit, or cannot be sent at all, is counted and reported in a `dropped` frame ahead of the
 * next lines that go out.
 */
export class LiveConnection {
  readonly #socket: net.Socket;
  readonly #token: string;
  readonly #title: string;
  #state: State = "connecting";
  readonly #backlog = new LineBacklog();
  readonly #inFlight = new WritesInFlight();
  #dropped = 0;
  #droppedTotal = 0;
  #closing = false;
  /** Set once the socket was given up; late write callbacks must not touch the counts. */
  #abandoned = false;
  readonly #idleWaiters: Array<() => void> = [];
  /** When the editor last took bytes (a write completed), epoch ms. */
  #lastProgressAt = Date.now();
  readonly #flushWaits = new FlushWaits(AWAITED_FLUSH_STALL_MS, () => this.#lastProgressAt);
  /** Watches, while work is pending, whether it is all that keeps the program running. */
  #stallWatch: NodeJS.Timeout | null = null;
  #programDone: (() => void) | null = null;
  #failure: LiveFailure | null = null;
  #onFailure: ((failure: LiveFailure) => void) | null = null;

  constructor(live: LiveEndpoint, title = programName()) {
    // The one place this class throws: a caller's mistake, before any connection exists.
    const { endpoint, token } = checkLiveEndpoint(live, "new LiveConnection(live, title)");
    requireString(title, "new LiveConnection(live, title)", "title");
    this.#token = token;
    this.#title = title;
    this.#socket = new net.Socket();
    this.#socket.unref();
    // Connected from the next turn, not now: the editor closes a connection whose hello does not
    // come within seconds, and a program in a long burst that never yields could not send it.
    // Until the hello goes out, lines wait in the queue (within the pending-work bound).
    setImmediate(() => {
      if (this.#state === "connecting" && !this.#socket.destroyed) this.#socket.connect(endpoint);
    });
    this.#socket.on("connect", () => this.#onConnect());
    this.#socket.on("error", (error) => this.#onError(error));
    this.#socket.on("close", () => this.#onClose());
    this.#socket.on("drain", () => this.#notifyIfIdle());
  }

  /** Sends one frame; never throws. Oversized frames and frames past the memory bound are counted as dropped. */
  send(frame: LiveFrame): void {
    let line: string;
    try {
      line = JSON.stringify(frame);
    } catch {
      this.#drop(1);
      return;
    }
    const bytes = Buffer.from(line + "\n");
    if (bytes.length - 1 > MAX_FRAME_BYTES) {
      this.#drop(1);
      return;
    }
    this.sendLines(bytes, 1);
  }

  /**
   * Sends `count` complete NDJSON lines (each ending in a newline, each within the frame limit),
   * as text or as its UTF-8 bytes (which must not change afterwards). Returns how many of them
   * were dropped (all or none: the editor is gone, or the pending-work bound is reached); never throws.
   */
  sendLines(lines: string | Uint8Array, count: number): number {
    return this.sendChunks([{ bytes: typeof lines === "string" ? Buffer.from(lines) : lines, lines: count }]);
  }

  /** {@link sendLines} for lines in several chunks of bytes (which must not change afterwards), all or none of them. */
  sendChunks(chunks: readonly LineChunk[]): number {
    let count = 0;
    let bytes = 0;
    for (const chunk of chunks) {
      count += chunk.lines;
      bytes += chunk.bytes.byteLength;
    }
    if (this.#state === "closed" || this.#closing || this.#pendingBytes() + bytes > signalSettings().maxPendingBytes) {
      this.#drop(count);
      for (const chunk of chunks) recycleChunk(chunk.bytes);
      return count;
    }
    this.#writeDropReport();
    for (const chunk of chunks) this.#write(asBuffer(chunk.bytes), chunk.lines);
    return 0;
  }

  /**
   * Calls `listener` once when the program has nothing left to do but this connection's pending
   * work (a connect or writes nobody answers). Pending socket requests keep Node's event loop
   * alive even though the socket is unref'd, so `beforeExit` never comes; this is how the exit
   * drain still starts. An awaited {@link flush} holds a timer, so the program is not done then.
   */
  onProgramDone(listener: () => void): void {
    this.#programDone = listener;
  }

  /**
   * Calls `listener` once if the stream goes dark before the program says bye: the address did
   * not answer, or the editor closed the connection. At once if that already happened.
   */
  onFailure(listener: (failure: LiveFailure) => void): void {
    this.#onFailure = listener;
    if (this.#failure) listener(this.#failure);
  }

  /** Counts `count` lines the caller could not send (too large for a frame): the next `dropped` frame reports them. */
  countDropped(count: number): void {
    this.#drop(count);
  }

  /** Frames that were dropped and not yet reported. */
  get pendingDropped(): number {
    return this.#dropped;
  }

  /** Frames dropped since the connection was made, reported or not. */
  get droppedTotal(): number {
    return this.#droppedTotal;
  }

  #drop(count: number): void {
    this.#dropped += count;
    this.#droppedTotal += count;
  }

  /** Bytes waiting for the editor to read them: in the backlog, or in the writes in flight. */
  #pendingBytes(): number {
    return this.#backlog.bytes + this.#inFlight.bytes;
  }

  /**
   * Resolves once everything sent so far was handed to the operating system (or the connection
   * is gone), or once the editor took nothing for {@link AWAITED_FLUSH_STALL_MS} since this call or
   * its last read: the caller then stops waiting and the lines stay queued (the exit drain still
   * bounds them).
   */
  flush(): Promise<void> {
    if (this.#state === "open" && this.#pendingBytes() === 0) this.#writeDropReport();
    if (this.#isIdle()) return Promise.resolve();
    return this.#flushWaits.wait();
  }

  /**
   * Flushes, sends `bye` and closes the socket; used when the program is about to exit. The drain
   * gets at most `drainMs` (the signal settings' `liveExitDrainMs`): a receiver that stops reading
   * must never keep the program alive, so after that the socket is destroyed and every line still
   * unsent is counted as dropped. A bye the editor never answers does not hold the program either.
   */
  async close(drainMs = signalSettings().liveExitDrainMs): Promise<void> {
    if (this.#state === "closed" || this.#closing) return;
    const deadline = Date.now() + drainMs;
    const drained = await withinDeadline(this.#whenIdle(), deadline);
    this.#closing = true;
    if (drained && this.#state === "open") {
      this.#writeDropReport();
      this.#write(Buffer.from(JSON.stringify({ type: "bye" }) + "\n"), 0);
      const ended = new Promise<void>((resolve) => this.#socket.end(resolve));
      if (await withinDeadline(ended, deadline)) {
        // Everything is with the operating system; the editor closes its end when it reads the
        // bye. Until then the open socket must not keep the program alive.
        this.#socket.unref();
        this.#resolveWaiters();
        return;
      }
    }
    this.#abandon();
  }

  /**
   * The process is exiting now (`exit` event): nothing more can be written. Counts what the
   * operating system has not taken whole as dropped, synchronously.
   */
  abandonAtExit(): void {
    if (this.#state !== "closed" && !this.#abandoned) this.#abandon();
  }

  /** Destroys the socket; lines the operating system did not take whole (or queued before it connected) are counted as dropped. */
  #abandon(): void {
    this.#drop(this.#inFlight.linesNotWritten(this.#socket.writableLength, bytesQueuedInOs(this.#socket)));
    this.#inFlight.clear();
    this.#abandoned = true;
    this.#closing = true;
    this.#socket.destroy();
    this.#closeDown();
  }

  #onConnect(): void {
    this.#state = "open";
    this.#lastProgressAt = Date.now();
    const hello: LiveFrame = {
      type: "hello",
      protocol: LIVE_PROTOCOL_VERSION,
      token: this.#token,
      pid: process.pid,
      title: this.#title,
    };
    // The hello (and the count of what was dropped meanwhile) goes ahead of the queued lines.
    const reportsDrops = this.#dropped > 0;
    const helloLine = Buffer.from(JSON.stringify(hello) + "\n");
    this.#backlog.pushFront(reportsDrops ? Buffer.concat([helloLine, this.#takeDropped()]) : helloLine, reportsDrops ? 1 : 0);
    this.#pump();
  }

  #onError(error: Error): void {
    if (this.#state !== "closed") getLogger().debug({ err: error }, `HookLens live stream unavailable: ${error.message}`);
    this.#fail(error);
    this.#closeDown();
  }

  #onClose(): void {
    this.#fail();
    this.#closeDown();
  }

  /** Notes why the stream went dark, once, unless the program itself was closing it. */
  #fail(error?: Error): void {
    if (this.#failure || this.#closing || this.#state === "closed") return;
    this.#failure = liveFailure(this.#state === "connecting" ? "connect" : "closed", error);
    this.#onFailure?.(this.#failure);
  }

  #closeDown(): void {
    // What was still in the backlog was never sent; count its lines.
    this.#drop(this.#backlog.clear());
    this.#state = "closed";
    this.#stopStallWatch();
    this.#resolveWaiters();
  }

  /** Queues a `dropped` frame for what was dropped and not reported yet, if anything was. */
  #writeDropReport(): void {
    if (this.#dropped > 0) this.#write(this.#takeDropped(), 1);
  }

  #takeDropped(): Buffer {
    const frame = Buffer.from(JSON.stringify({ type: "dropped", count: this.#dropped }) + "\n");
    this.#dropped = 0;
    return frame;
  }

  /** Queues `chunk`, which holds `lines` lines that count as signals or drop reports (hello and bye do not), and writes when it can. */
  #write(chunk: Buffer, lines: number): void {
    if (chunk.length === 0) return;
    this.#backlog.push(chunk, lines);
    this.#pump();
    this.#watchForStall();
  }

  /** Hands the socket the oldest backlog chunks (up to {@link MAX_WRITE_BYTES} a write) while fewer than two writes are in flight. */
  #pump(): void {
    while (this.#inFlight.count < MAX_WRITES_IN_FLIGHT && this.#state === "open" && !this.#backlog.isEmpty) this.#writeNext();
  }

  #writeNext(): void {
    const write = this.#backlog.take(MAX_WRITE_BYTES);
    const { chunks } = write;
    this.#inFlight.add(write);
    try {
      // Corked, the pieces go out in one writev: no copy into one large new buffer.
      this.#socket.cork();
      for (let i = 0; i < chunks.length - 1; i++) this.#socket.write(chunks[i]!);
      this.#socket.write(chunks[chunks.length - 1]!, (error) => {
        if (this.#abandoned) return;
        this.#inFlight.complete();
        this.#lastProgressAt = Date.now();
        // The whole group is written (a corked group completes as one): its memory can be reused.
        for (const chunk of chunks) recycleChunk(chunk);
        // A failed write's lines never arrived.
        if (error) this.#drop(write.lines);
        this.#pump();
        this.#notifyIfIdle();
      });
      this.#socket.uncork();
    } catch {
      this.#inFlight.complete();
      this.#drop(write.lines);
      this.#closeDown();
    }
  }

  /** While a connect or writes are pending, checks now and then whether they are all that is left of the program. */
  #watchForStall(): void {
    if (this.#stallWatch || !this.#programDone || this.#state === "closed") return;
    this.#stallWatch = setInterval(() => {
      if (this.#state === "closed" || this.#isIdle()) this.#stopStallWatch();
      else if (onlyPendingIoKeepsAlive(this.#socket)) {
        this.#stopStallWatch();
        this.#programDone?.();
      }
    }, STALL_CHECK_MS);
    // Never itself a reason to stay alive.
    this.#stallWatch.unref();
  }

  #stopStallWatch(): void {
    if (this.#stallWatch) clearInterval(this.#stallWatch);
    this.#stallWatch = null;
  }

  /** Resolves once everything was handed over or the connection is gone; no time bound of its own. */
  #whenIdle(): Promise<void> {
    if (this.#isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  #isIdle(): boolean {
    return this.#state === "closed" || (this.#state === "open" && this.#pendingBytes() === 0 && this.#socket.writableLength === 0);
  }

  #notifyIfIdle(): void {
    if (this.#isIdle()) this.#resolveWaiters();
  }

  #resolveWaiters(): void {
    this.#flushWaits.resolveAll();
    for (const resolve of this.#idleWaiters.splice(0)) resolve();
  }
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
