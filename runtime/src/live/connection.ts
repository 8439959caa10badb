import net from "node:net";
import { basename } from "node:path";
import { getLogger } from "../shared/log.js";
import { LIVE_PROTOCOL_VERSION, MAX_FRAME_BYTES, type LiveEndpoint, type LiveFrame } from "./frames.js";

/** Frames kept while the editor is slow or not yet connected; beyond that they are counted as dropped. */
export const MAX_QUEUED_FRAMES = 10_000;

type State = "connecting" | "open" | "closed";

/**
 * A best-effort NDJSON stream to the editor. It never throws into the caller and never keeps
 * the process alive on its own: frames queue (bounded) until the socket is open, are written in
 * batches once per tick, and whatever cannot be sent is reported in a `dropped` frame.
 */
export class LiveConnection {
  readonly #socket: net.Socket;
  readonly #token: string;
  readonly #title: string;
  #state: State = "connecting";
  #queue: string[] = [];
  #dropped = 0;
  #flushScheduled = false;
  #waitingForDrain = false;
  #closing = false;
  readonly #idleWaiters: Array<() => void> = [];

  constructor({ endpoint, token }: LiveEndpoint, title = defaultTitle()) {
    this.#token = token;
    this.#title = title;
    this.#socket = net.createConnection(endpoint);
    this.#socket.unref();
    this.#socket.on("connect", () => this.#onConnect());
    this.#socket.on("error", (error) => this.#onError(error));
    this.#socket.on("close", () => this.#onClose());
    this.#socket.on("drain", () => {
      this.#waitingForDrain = false;
      this.#scheduleFlush();
    });
  }

  /** Queues a frame; never throws. Oversized frames and frames beyond the queue bound are counted as dropped. */
  send(frame: LiveFrame): void {
    if (this.#state === "closed" || this.#closing) {
      this.#dropped++;
      return;
    }
    let line: string;
    try {
      line = JSON.stringify(frame);
    } catch {
      this.#dropped++;
      return;
    }
    if (Buffer.byteLength(line) > MAX_FRAME_BYTES || this.#queue.length >= MAX_QUEUED_FRAMES) {
      this.#dropped++;
      return;
    }
    this.#queue.push(line);
    this.#scheduleFlush();
  }

  /** Frames that were dropped and not yet reported. */
  get pendingDropped(): number {
    return this.#dropped;
  }

  /** Resolves once everything queued so far was handed to the socket (or the connection is gone). */
  flush(): Promise<void> {
    if (this.#isIdle()) return Promise.resolve();
    this.#socket.ref();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /** Flushes, sends `bye` and closes the socket; used when the program is about to exit. */
  async close(): Promise<void> {
    if (this.#state === "closed" || this.#closing) return;
    this.#socket.ref();
    await this.flush();
    this.#closing = true;
    if (this.#state === "open") {
      this.#writeRaw(this.#takeBatch() + JSON.stringify({ type: "bye" }) + "\n");
      await new Promise<void>((resolve) => this.#socket.end(resolve));
    } else {
      this.#socket.destroy();
    }
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
    this.#writeRaw(JSON.stringify(hello) + "\n");
    this.#scheduleFlush();
  }

  #onError(error: Error): void {
    if (this.#state !== "closed") getLogger().debug({ err: error }, `HookLens live stream unavailable: ${error.message}`);
    this.#closeDown();
  }

  #onClose(): void {
    this.#closeDown();
  }

  #closeDown(): void {
    this.#state = "closed";
    this.#dropped += this.#queue.length;
    this.#queue = [];
    this.#notifyIdle();
  }

  #scheduleFlush(): void {
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    setImmediate(() => {
      this.#flushScheduled = false;
      this.#flushNow();
    });
  }

  #flushNow(): void {
    if (this.#state !== "open" || this.#waitingForDrain) return;
    if (this.#queue.length > 0 || this.#dropped > 0) {
      if (!this.#writeRaw(this.#takeBatch())) this.#waitingForDrain = true;
    }
    if (this.#isIdle()) this.#notifyIdle();
  }

  /** Queued lines as one write, led by a `dropped` report when frames were lost. */
  #takeBatch(): string {
    let batch = "";
    if (this.#dropped > 0) {
      batch = JSON.stringify({ type: "dropped", count: this.#dropped }) + "\n";
      this.#dropped = 0;
    }
    if (this.#queue.length > 0) batch += this.#queue.join("\n") + "\n";
    this.#queue = [];
    return batch;
  }

  #writeRaw(chunk: string): boolean {
    if (chunk.length === 0) return true;
    try {
      return this.#socket.write(chunk);
    } catch {
      this.#closeDown();
      return true;
    }
  }

  #isIdle(): boolean {
    return this.#state === "closed" || (this.#state === "open" && this.#queue.length === 0 && !this.#waitingForDrain);
  }

  #notifyIdle(): void {
    if (!this.#closing) this.#socket.unref();
    for (const resolve of this.#idleWaiters.splice(0)) resolve();
  }
}

function defaultTitle(): string {
  const script = process.argv[1];
  return (script ? basename(script) : process.title).slice(0, 512);
}
