import net from "node:net";
import { programName } from "../shared/program.js";
import { signalSettings } from "../session/pipeline/signalSettings.js";
import { requireString } from "../shared/arguments.js";
import { getLogger } from "../shared/log.js";
import { checkLiveEndpoint, LIVE_PROTOCOL_VERSION, MAX_FRAME_BYTES, type LiveEndpoint, type LiveFrame } from "./frames.js";
import { recycleChunk, type LineChunk } from "./lineBuffer.js";

type State = "connecting" | "open" | "closed";

/** Most bytes handed to the socket in one write; the rest waits in the connection's own backlog. */
const MAX_WRITE_BYTES = 256 * 1024;
/** Writes in flight at once: two, so the next is queued while the editor reads the first. */
const MAX_WRITES_IN_FLIGHT = 2;

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
  /** Chunks of UTF-8 lines not yet handed to the socket (all of them before it connects), oldest first from `#backlogHead`. */
  #backlog: Buffer[] = [];
  /** Per chunk of the backlog: how many of its lines count as signals or drop reports. */
  #backlogLines: number[] = [];
  #backlogHead = 0;
  #backlogBytes = 0;
  /** Counted lines in the backlog (lost if the connection ends before they are written). */
  #unwrittenLines = 0;
  /** The writes in flight: how many, their bytes and counted lines (lost if the socket is destroyed). */
  #writes = 0;
  #inFlightBytes = 0;
  #inFlightLines = 0;
  #dropped = 0;
  #droppedTotal = 0;
  #closing = false;
  /** Set once close() gave up on the receiver; late write callbacks must not touch the counts. */
  #abandoned = false;
  readonly #idleWaiters: Array<() => void> = [];
  /** Watches, while writes are pending, whether they are all that keeps the program running. */
  #stallWatch: NodeJS.Timeout | null = null;
  #programDone: (() => void) | null = null;

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
   * writes. A write the receiver does not read keeps Node's event loop alive even though the
   * socket is unref'd, so `beforeExit` never comes; this is how the exit drain still starts.
   * While the program awaits {@link flush} and the editor keeps reading, it is waiting on
   * purpose and the drain does not start; once the editor read nothing for 5 s, it does.
   */
  onProgramDone(listener: () => void): void {
    this.#programDone = listener;
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

  /** Bytes waiting for the editor to read them: in the backlog, or in the write in flight. */
  #pendingBytes(): number {
    return this.#backlogBytes + this.#inFlightBytes;
  }

  /** Resolves once everything sent so far was handed to the operating system (or the connection is gone). */
  flush(): Promise<void> {
    if (this.#state === "open" && this.#pendingBytes() === 0) this.#writeDropReport();
    if (this.#isIdle()) return Promise.resolve();
    this.#socket.ref();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /**
   * Flushes, sends `bye` and closes the socket; used when the program is about to exit. The drain
   * gets at most `drainMs` (the signal settings' `liveExitDrainMs`): a receiver that stops reading
   * must never keep the program alive, so after that the socket is destroyed and every line still
   * unsent is counted as dropped.
   */
  async close(drainMs = signalSettings().liveExitDrainMs): Promise<void> {
    if (this.#state === "closed" || this.#closing) return;
    this.#socket.ref();
    const deadline = Date.now() + drainMs;
    const drained = await withinDeadline(this.flush(), deadline);
    this.#closing = true;
    if (drained && this.#state === "open") {
      this.#writeDropReport();
      this.#write(Buffer.from(JSON.stringify({ type: "bye" }) + "\n"), 0);
      const ended = new Promise<void>((resolve) => this.#socket.end(resolve));
      if (await withinDeadline(ended, deadline)) return;
    }
    this.#abandon();
  }

  /** Destroys the socket; lines still in its buffer (or queued before it connected) are counted as dropped. */
  #abandon(): void {
    this.#drop(this.#inFlightLines);
    this.#inFlightLines = 0;
    this.#abandoned = true;
    this.#socket.destroy();
    this.#closeDown();
  }

  #onConnect(): void {
    this.#state = "open";
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
    const first = reportsDrops ? Buffer.concat([helloLine, this.#takeDropped()]) : helloLine;
    this.#backlog.splice(this.#backlogHead, 0, first);
    this.#backlogLines.splice(this.#backlogHead, 0, reportsDrops ? 1 : 0);
    this.#backlogBytes += first.length;
    this.#unwrittenLines += reportsDrops ? 1 : 0;
    this.#pump();
  }

  #onError(error: Error): void {
    if (this.#state !== "closed") getLogger().debug({ err: error }, `HookLens live stream unavailable: ${error.message}`);
    this.#closeDown();
  }

  #onClose(): void {
    this.#closeDown();
  }

  #closeDown(): void {
    // What was still in the backlog was never sent; count its lines.
    this.#drop(this.#unwrittenLines);
    this.#state = "closed";
    this.#backlog = [];
    this.#backlogLines = [];
    this.#backlogHead = 0;
    this.#backlogBytes = 0;
    this.#unwrittenLines = 0;
    this.#notifyIdle();
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
    this.#backlog.push(chunk);
    this.#backlogLines.push(lines);
    this.#backlogBytes += chunk.length;
    this.#unwrittenLines += lines;
    this.#pump();
  }

  /** Hands the socket the oldest backlog chunks (up to {@link MAX_WRITE_BYTES} a write) while fewer than two writes are in flight. */
  #pump(): void {
    while (this.#writes < MAX_WRITES_IN_FLIGHT && this.#state === "open" && this.#backlogHead < this.#backlog.length) this.#writeNext();
  }

  #writeNext(): void {
    const chunks: Buffer[] = [];
    let size = 0;
    let lines = 0;
    while (this.#backlogHead < this.#backlog.length && (size === 0 || size + this.#backlog[this.#backlogHead]!.length <= MAX_WRITE_BYTES)) {
      const chunk = this.#backlog[this.#backlogHead]!;
      chunks.push(chunk);
      size += chunk.length;
      lines += this.#backlogLines[this.#backlogHead]!;
      this.#backlogHead++;
    }
    if (this.#backlogHead === this.#backlog.length) {
      this.#backlog = [];
      this.#backlogLines = [];
      this.#backlogHead = 0;
    } else if (this.#backlogHead > 1_024) {
      this.#backlog = this.#backlog.slice(this.#backlogHead);
      this.#backlogLines = this.#backlogLines.slice(this.#backlogHead);
      this.#backlogHead = 0;
    }
    this.#backlogBytes -= size;
    this.#unwrittenLines -= lines;
    this.#writes++;
    this.#inFlightBytes += size;
    this.#inFlightLines += lines;
    const done = (): void => {
      this.#writes--;
      this.#inFlightBytes -= size;
      this.#inFlightLines -= lines;
    };
    try {
      // Corked, the pieces go out in one writev: no copy into one large new buffer.
      this.#socket.cork();
      for (let i = 0; i < chunks.length - 1; i++) this.#socket.write(chunks[i]!);
      this.#socket.write(chunks[chunks.length - 1]!, (error) => {
        if (this.#abandoned) return;
        done();
        // The whole group is written (a corked group completes as one): its memory can be reused.
        for (const chunk of chunks) recycleChunk(chunk);
        // A failed write's lines never arrived.
        if (error) this.#drop(lines);
        this.#pump();
        this.#notifyIfIdle();
      });
      this.#socket.uncork();
      this.#watchForStall();
    } catch {
      done();
      this.#drop(lines);
      this.#closeDown();
    }
  }

  #watchForStall(): void {
    if (this.#stallWatch || !this.#programDone) return;
    let previousLength = Number.POSITIVE_INFINITY;
    let movedAt = Date.now();
    this.#stallWatch = setInterval(() => {
      const length = this.#pendingBytes();
      if (length < previousLength) movedAt = Date.now();
      previousLength = length;
      // Someone awaits flush() and the editor read something lately: the program waits on purpose.
      const awaitedAndMoving = this.#idleWaiters.length > 0 && Date.now() - movedAt < AWAITED_STALL_MS;
      if (this.#state === "closed" || length === 0) {
        this.#stopStallWatch();
      } else if (!awaitedAndMoving && onlyPendingIoKeepsAlive(this.#socket)) {
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

  #isIdle(): boolean {
    return this.#state === "closed" || (this.#state === "open" && this.#pendingBytes() === 0 && this.#socket.writableLength === 0);
  }

  #notifyIfIdle(): void {
    if (this.#isIdle()) this.#notifyIdle();
  }

  #notifyIdle(): void {
    if (!this.#closing) this.#socket.unref();
    for (const resolve of this.#idleWaiters.splice(0)) resolve();
  }
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** How often a connection with pending writes checks whether the rest of the program has finished. */
const STALL_CHECK_MS = 100;
/**
 * How long an awaited flush() waits for an editor that reads nothing at all before the exit drain
 * starts anyway. Generous, because a loaded machine can starve the editor for a while; short
 * enough that an editor paused in a debugger does not hold the program for long.
 */
const AWAITED_STALL_MS = 5_000;
/** Requests (not handles) that a pending socket write or connect leaves in the event loop. */
const PENDING_IO = new Set(["WriteWrap", "SimpleWriteWrap", "ShutdownWrap", "PipeConnectWrap", "TCPConnectWrap"]);

/** Node's list of live handles (sockets, servers, child processes), an old undocumented API. */
type ProcessWithHandles = NodeJS.Process & { _getActiveHandles?: () => unknown[] };

/**
 * True when all that keeps the event loop alive is pending socket I/O: no timers, no file work,
 * no handles besides this socket and the standard streams (which Node lists but which never hold
 * a process open). The program has then finished but for writes nobody reads. A user's own lone
 * pending write would look the same; the live stream would then merely start its bounded exit
 * drain early. Without the handle list (another runtime) it answers false and nothing changes.
 */
function onlyPendingIoKeepsAlive(socket: net.Socket): boolean {
  const handles = (process as ProcessWithHandles)._getActiveHandles?.();
  if (!handles) return false;
  // Standard streams are recognised by Node's own mark, not by reading process.stdin (which would create it).
  if (!handles.every((handle) => handle === socket || (handle as { _isStdio?: unknown })._isStdio === true)) return false;
  const others = process.getActiveResourcesInfo().filter((type) => !PENDING_IO.has(type));
  // What is left are the handles checked above (PipeWrap, TTYWrap...), nothing else.
  return others.length <= handles.length && others.every((type) => HANDLE_TYPES.has(type));
}

/** Resource names of stream handles (the standard streams and the socket itself). */
const HANDLE_TYPES = new Set(["PipeWrap", "TTYWrap", "TCPSocketWrap", "TCPWrap"]);

/** Waits for `work` until `deadline` (epoch ms); true when it finished in time. The timer keeps the process alive meanwhile. */
async function withinDeadline(work: Promise<void>, deadline: number): Promise<boolean> {
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

