import { randomBytes, timingSafeEqual } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  MAX_FRAME_BYTES,
  formatLiveEnv,
  helloFrameSchema,
  liveFrameSchema,
  type HelloFrame,
  type LiveFrame,
} from "@hooklens/runtime/live";
import { LineReader } from "./lineReader.js";

/** A program that connected and proved it holds the token. */
export interface LivePeer {
  /** Unique per connection, even when a pid is reused. */
  connectionId: number;
  hello: HelloFrame;
}

export interface LiveServerEvents {
  /** A valid frame after a valid hello (the hello itself included). */
  onFrame(peer: LivePeer, frame: LiveFrame): void;
  onDisconnect?(peer: LivePeer): void;
}

/** Counts of what was refused, for the output channel and for tests. */
export interface LiveServerStats {
  rejectedConnections: number;
  malformedLines: number;
  oversizedLines: number;
}

/**
 * The editor's end of the live-signal stream: a Unix socket in a private (0700) temporary
 * folder, or a named pipe on Windows. A connection must open with a `hello` carrying the
 * token; otherwise it is closed and nothing it sent is used. After that, each line is validated
 * on its own: an oversized or malformed line is counted and skipped, never fatal.
 */
export class LiveServer {
  readonly endpoint: string;
  readonly token: string;
  readonly stats: LiveServerStats = { rejectedConnections: 0, malformedLines: 0, oversizedLines: 0 };
  readonly #server: net.Server;
  readonly #folder: string | null;
  readonly #sockets = new Set<net.Socket>();
  #nextConnectionId = 1;

  private constructor(server: net.Server, endpoint: string, folder: string | null, token: string) {
    this.#server = server;
    this.endpoint = endpoint;
    this.#folder = folder;
    this.token = token;
  }

  static async start(events: LiveServerEvents): Promise<LiveServer> {
    const token = randomBytes(16).toString("hex");
    const folder = process.platform === "win32" ? null : mkdtempSync(join(tmpdir(), "hooklens-"));
    const endpoint = folder ? join(folder, "live.sock") : `\\\\.\\pipe\\hooklens-${randomBytes(8).toString("hex")}`;
    let live: LiveServer | undefined;
    const server = net.createServer((socket) => (live ? live.#accept(socket, events) : socket.destroy()));
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(endpoint, () => {
        server.off("error", reject);
        resolve();
      });
    });
    live = new LiveServer(server, endpoint, folder, token);
    return live;
  }

  /** The value of HOOKLENS_LIVE for programs this editor starts. */
  get environmentValue(): string {
    return formatLiveEnv({ endpoint: this.endpoint, token: this.token });
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
    if (this.#folder) rmSync(this.#folder, { recursive: true, force: true });
  }

  #accept(socket: net.Socket, events: LiveServerEvents): void {
    this.#sockets.add(socket);
    const reader = new LineReader(MAX_FRAME_BYTES);
    let peer: LivePeer | null = null;
    socket.on("data", (chunk: Buffer) =>
      reader.push(
        chunk,
        (line) => {
          if (socket.destroyed) return;
          if (peer === null) {
            peer = this.#greet(line);
            if (peer) events.onFrame(peer, peer.hello);
            else {
              this.stats.rejectedConnections++;
              socket.destroy();
            }
            return;
          }
          const frame = parseFrame(line);
          if (!frame) this.stats.malformedLines++;
          else if (frame.type !== "hello") {
            events.onFrame(peer, frame);
            if (frame.type === "bye") socket.end();
          }
        },
        () => {
          this.stats.oversizedLines++;
          if (peer === null) {
            this.stats.rejectedConnections++;
            socket.destroy();
          }
        },
      ),
    );
    socket.on("error", () => socket.destroy());
    socket.on("close", () => {
      this.#sockets.delete(socket);
      if (peer) events.onDisconnect?.(peer);
    });
  }

  #greet(line: string): LivePeer | null {
    const parsed = helloFrameSchema.safeParse(parseJson(line));
    if (!parsed.success || !sameToken(parsed.data.token, this.token)) return null;
    return { connectionId: this.#nextConnectionId++, hello: parsed.data };
  }
}

function parseFrame(line: string): LiveFrame | null {
  const parsed = liveFrameSchema.safeParse(parseJson(line));
  return parsed.success ? parsed.data : null;
}

function parseJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
