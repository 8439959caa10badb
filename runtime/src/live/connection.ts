import net from "node:net";
import { basename } from "node:path";
import { signalSettings } from "../session/pipeline/signalSettings.js";
import { getLogger } from "../shared/log.js";
import { LIVE_PROTOCOL_VERSION, MAX_FRAME_BYTES, type LiveEndpoint, type LiveFrame } from "./frames.js";

type State = "connecting" | "open" | "closed";

/**
 * A best-effort NDJSON stream to the editor. It never throws into the caller and never keeps
 * the process alive on its own. Lines are handed to the socket as they come (before it connects
 * they wait in a queue); what the editor has not read yet, queue and socket buffer together, is
 * bounded by the signal settings' `maxPendingBytes`. Whatever does not fit, or cannot be sent
 * at all, is counted and reported in a `dropped` frame ahead of the next lines that go out.
 */
export class LiveConnection {
  readonly #socket: net.Socket;
  readonly #token: string;
  readonly #title: string;
  #state: State = "connecting";
  #queue: string[] = [];
  #queuedBytes = 0;
  #dropped = 0;
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
    this.#socket.on("drain", () => this.#notifyIfIdle());
  }

  /** Sends one frame; never throws. Oversized frames and frames past the memory bound are counted as dropped. */
  send(frame: LiveFrame): void {
    let line: string;
    try {
      line = JSON.stringify(frame);
    } catch {
      this.#dropped++;
      return;
    }
    if (Buffer.byteLength(line) > MAX_FRAME_BYTES) {
      this.#dropped++;
      return;
    }
    this.sendLines(line + "\n", 1);
  }

  /** Sends `count` complete NDJSON lines (each ending in a newline, each within the frame limit); never throws. */
  sendLines(text: string, count: number): void {
    if (this.#state === "closed" || this.#closing) {
      this.#dropped += count;
      return;
    }
    // A JS string's length in UTF-16 units: close enough to bytes for a memory bound.
    const bytes = text.length;
    if (this.#pendingBytes() + bytes > signalSettings().maxPendingBytes) {
      this.#dropped += count;
      return;
    }
    const chunk = this.#dropped > 0 ? this.#takeDropped() + text : text;
    if (this.#state === "open") this.#write(chunk);
    else {
      this.#queue.push(chunk);
      this.#queuedBytes += chunk.length;
    }
  }

  /** Frames that were dropped and not yet reported. */
  get pendingDropped(): number {
    return this.#dropped;
  }

  /** Bytes waiting for the editor to read them: queued before the connection opened, or in the socket's buffer. */
  #pendingBytes(): number {
    return this.#queuedBytes + this.#socket.writableLength;
  }

  /** Resolves once everything sent so far was handed to the operating system (or the connection is gone). */
  flush(): Promise<void> {
    if (this.#state === "open" && this.#dropped > 0 && this.#socket.writableLength === 0) this.#write(this.#takeDropped());
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
      this.#write((this.#dropped > 0 ? this.#takeDropped() : "") + JSON.stringify({ type: "bye" }) + "\n");
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
    const queued = this.#queue.join("");
    this.#queue = [];
    this.#queuedBytes = 0;
    this.#write(JSON.stringify(hello) + "\n" + (this.#dropped > 0 ? this.#takeDropped() : "") + queued);
    this.#notifyIfIdle();
  }

  #onError(error: Error): void {
    if (this.#state !== "closed") getLogger().debug({ err: error }, `HookLens live stream unavailable: ${error.message}`);
    this.#closeDown();
  }

  #onClose(): void {
    this.#closeDown();
  }

  #closeDown(): void {
    if (this.#state !== "closed") {
      // What was queued but never sent is lost; count its lines.
      for (const chunk of this.#queue) this.#dropped += countLines(chunk);
    }
    this.#state = "closed";
    this.#queue = [];
    this.#queuedBytes = 0;
    this.#notifyIdle();
  }

  #takeDropped(): string {
    const frame = JSON.stringify({ type: "dropped", count: this.#dropped }) + "\n";
    this.#dropped = 0;
    return frame;
  }

  #write(chunk: string): void {
    if (chunk.length === 0) return;
    try {
      this.#socket.write(chunk);
    } catch {
      this.#closeDown();
    }
  }

  #isIdle(): boolean {
    return this.#state === "closed" || (this.#state === "open" && this.#socket.writableLength === 0);
  }

  #notifyIfIdle(): void {
    if (this.#isIdle()) this.#notifyIdle();
  }

  #notifyIdle(): void {
    if (!this.#closing) this.#socket.unref();
    for (const resolve of this.#idleWaiters.splice(0)) resolve();
  }
}

function countLines(text: string): number {
  let count = 0;
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) count++;
  return count;
}

function defaultTitle(): string {
  const script = process.argv[1];
  return (script ? basename(script) : process.title).slice(0, 512);
}
