import { timingSafeEqual } from "node:crypto";
import { rmSync } from "node:fs";
import net from "node:net";
import {
  MAX_FRAME_BYTES,
  formatLiveEnv,
  helloFrameSchema,
  liveFrameSchema,
  type HelloFrame,
  type LiveFrame,
} from "@hooklens/runtime/live";
import { freshLiveAddress, type LiveAddress } from "./liveAddress.js";
import { LineReader } from "./lineReader.js";

/** A program that connected and proved it holds the token. */
export interface LivePeer {
  /** Unique per connection, even when a pid is reused. */
  connectionId: number;
  hello: HelloFrame;
}

export interface LiveServerEvents {
  /** A valid frame after a valid hello (the hello itself included); `bytes` is the length of its line. */
  onFrame(peer: LivePeer, frame: LiveFrame, bytes: number): void;
  onDisconnect?(peer: LivePeer): void;
}

/** Counts of what was refused, for the output channel and for tests. */
export interface LiveServerStats {
  /** Connections closed because their first line was not a valid hello with the token. */
  rejectedConnections: number;
  /** Connections closed because no hello arrived within `helloTimeoutMs`. */
  helloTimeouts: number;
  /** Programs with a valid hello refused because `maxConnections` greeted programs were already streaming. */
  refusedConnections: number;
  /** Connections not yet greeted that were closed to make room for newer ones (`maxPendingConnections`). */
  displacedConnections: number;
  malformedLines: number;
  oversizedLines: number;
}

/** Bounds on what one editor spends on its socket; every field has a default. */
export interface LiveServerLimits {
  /** A connection that has not sent a valid hello by then is closed (default 3 s). */
  helloTimeoutMs?: number;
  /** The longest line buffered before the hello; a longer one closes the connection (default 4 KiB). */
  maxHelloBytes?: number;
  /** The longest line buffered after the hello; a longer one is skipped (default 64 KiB, the frame limit). */
  maxLineBytes?: number;
  /**
   * Greeted connections (programs that sent this editor's token) at most; a program greeting
   * beyond it is closed (default 64). Connections that have not greeted never count against it.
   */
  maxConnections?: number;
  /**
   * Connections waiting for their hello at most; a new one past it closes the oldest waiting one,
   * so strangers that connect and stay silent can never keep a program out (default 256).
   */
  maxPendingConnections?: number;
}

export const DEFAULT_LIVE_SERVER_LIMITS: Readonly<Required<LiveServerLimits>> = {
  helloTimeoutMs: 3_000,
  maxHelloBytes: 4 * 1024,
  maxLineBytes: MAX_FRAME_BYTES,
  maxConnections: 64,
  maxPendingConnections: 256,
};

/**
 * The editor's end of the live-signal stream: a Unix socket in a private (0700) folder, or a
 * named pipe on Windows (see liveAddress.ts). A connection must open with a `hello` carrying the
 * token within a few seconds, in a short line; otherwise it is closed and nothing it sent is
 * used. After that, each line is validated on its own: an oversized or malformed line is counted
 * and skipped, never fatal. Greeted and waiting connections are bounded apart, so silent
 * strangers cannot take a program's place; everything refused is counted.
 */
export class LiveServer {
  readonly endpoint: string;
  readonly token: string;
  readonly stats: LiveServerStats = { rejectedConnections: 0, helloTimeouts: 0, refusedConnections: 0, displacedConnections: 0, malformedLines: 0, oversizedLines: 0 };
  #limits: Readonly<Required<LiveServerLimits>>;
  readonly #server: net.Server;
  readonly #address: LiveAddress;
  /** Each open connection's line reader, and whether it has said hello (then its lines are frames). */
  readonly #connections = new Map<net.Socket, { reader: LineReader; greeted: boolean }>();
  /** Connections that have not greeted yet, oldest first. */
  readonly #pending = new Set<net.Socket>();
  #greetedCount = 0;
  #nextConnectionId = 1;

  private constructor(server: net.Server, address: LiveAddress, limits: Required<LiveServerLimits>) {
    this.#limits = limits;
    this.#server = server;
    this.#address = address;
    this.endpoint = address.endpoint;
    this.token = address.token;
  }

  /**
   * Listens at `address` (a fresh one by default). A socket file left there by a window that
   * ended without closing it (nothing answers it) is taken over; one that still answers is not,
   * and the start fails. `tookOver` says whether a stale socket was replaced.
   */
  static async start(events: LiveServerEvents, limits: LiveServerLimits = {}, address: LiveAddress = freshLiveAddress()): Promise<LiveServer> {
    let live: LiveServer | undefined;
    const server = net.createServer((socket) => (live ? live.#accept(socket, events) : socket.destroy()));
    let tookOver = false;
    try {
      await listen(server, address.endpoint);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE" || address.folder === null || (await answers(address.endpoint))) throw error;
      rmSync(address.endpoint, { force: true });
      tookOver = true;
      await listen(server, address.endpoint);
    }
    live = new LiveServer(server, address, withDefaults(limits));
    live.tookOver = tookOver;
    return live;
  }

  /** Whether this server replaced a stale socket file at its address when it started. */
  tookOver = false;

  /** Whether the address outlives a window reload. */
  get stable(): boolean {
    return this.#address.stable;
  }

  /** The bounds in force. */
  get limits(): Readonly<Required<LiveServerLimits>> {
    return this.#limits;
  }

  /**
   * Puts new bounds in force without a restart (a settings change): line sizes apply to the next
   * line of every open connection, the hello timeout and the connection count to the next
   * connection. A limit not given returns to its default.
   */
  setLimits(limits: LiveServerLimits): void {
    this.#limits = withDefaults(limits);
    for (const { reader, greeted } of this.#connections.values()) reader.setMaxBytes(greeted ? this.#limits.maxLineBytes : this.#limits.maxHelloBytes);
  }

  /** The value of HOOKLENS_LIVE for programs this editor starts. */
  get environmentValue(): string {
    return formatLiveEnv({ endpoint: this.endpoint, token: this.token });
  }

  async close(): Promise<void> {
    for (const socket of this.#connections.keys()) socket.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
    // A stable address's folder stays for the next window of this workspace (closing removed the socket).
    if (this.#address.folder && !this.#address.stable) rmSync(this.#address.folder, { recursive: true, force: true });
  }

  #accept(socket: net.Socket, events: LiveServerEvents): void {
    this.#makeRoomForPending();
    const reader = new LineReader(this.#limits.maxHelloBytes);
    const connection = { reader, greeted: false };
    this.#connections.set(socket, connection);
    this.#pending.add(socket);
    let peer: LivePeer | null = null;
    const helloTimer = setTimeout(() => {
      // A busy extension host can run this timer before reading a hello that already arrived:
      // look once more after the poll phase has read the socket.
      setImmediate(() => {
        if (peer !== null || socket.destroyed) return;
        this.stats.helloTimeouts++;
        socket.destroy();
      });
    }, this.#limits.helloTimeoutMs);
    helloTimer.unref();
    socket.on("data", (chunk: Buffer) =>
      reader.push(
        chunk,
        (line, bytes) => {
          if (socket.destroyed) return;
          if (peer === null) {
            peer = this.#greet(socket, line);
            if (peer) {
              clearTimeout(helloTimer);
              reader.setMaxBytes(this.#limits.maxLineBytes);
              events.onFrame(peer, peer.hello, bytes);
            }
            return;
          }
          const frame = parseFrame(line);
          if (!frame) this.stats.malformedLines++;
          else if (frame.type !== "hello") {
            events.onFrame(peer, frame, bytes);
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
      clearTimeout(helloTimer);
      this.#connections.delete(socket);
      this.#pending.delete(socket);
      if (connection.greeted) this.#greetedCount--;
      if (peer) events.onDisconnect?.(peer);
    });
  }

  /** Closes the oldest connections still waiting for their hello until a new one fits. */
  #makeRoomForPending(): void {
    for (const waiting of this.#pending) {
      if (this.#pending.size < this.#limits.maxPendingConnections) return;
      this.#pending.delete(waiting);
      this.stats.displacedConnections++;
      waiting.destroy();
    }
  }

  /** The peer a first line makes of a connection; a wrong hello, or one past `maxConnections`, closes it. */
  #greet(socket: net.Socket, line: string): LivePeer | null {
    this.#pending.delete(socket);
    const parsed = helloFrameSchema.safeParse(parseJson(line));
    if (!parsed.success || !sameToken(parsed.data.token, this.token)) {
      this.stats.rejectedConnections++;
      socket.destroy();
      return null;
    }
    if (this.#greetedCount >= this.#limits.maxConnections) {
      this.stats.refusedConnections++;
      socket.destroy();
      return null;
    }
    this.#greetedCount++;
    this.#connections.get(socket)!.greeted = true;
    return { connectionId: this.#nextConnectionId++, hello: parsed.data };
  }
}

function listen(server: net.Server, endpoint: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(endpoint, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

/** Whether something accepts connections at `endpoint` (a live server), as opposed to a stale socket file. */
function answers(endpoint: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createConnection(endpoint);
    probe.once("connect", () => {
      probe.destroy();
      resolve(true);
    });
    probe.once("error", () => resolve(false));
  });
}

function withDefaults(limits: LiveServerLimits): Required<LiveServerLimits> {
  return { ...DEFAULT_LIVE_SERVER_LIMITS, ...Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined)) };
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
