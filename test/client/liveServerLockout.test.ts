import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { LIVE_PROTOCOL_VERSION, LiveConnection, parseLiveEnv, type SignalFrame } from "@hooklens/runtime/live";
import { LiveServer, type LiveServerLimits } from "../../client/src/signals/liveServer.js";
import { SignalStore } from "../../client/src/signals/signalStore.js";
import { untilStore } from "./storeChanges.js";

// Strangers on the live socket (anyone who can reach it, without the token) must never keep the
// real program out: each case opens hostile connections against the real socket server, then a
// program with the token connects seven times in a row, and every connect must stream.

let server: LiveServer | undefined;
const strangers: net.Socket[] = [];
let reconnecting = false;
afterEach(async () => {
  reconnecting = false;
  for (const socket of strangers.splice(0)) socket.destroy();
  await server?.close();
  server = undefined;
});

const until = untilStore;

/** Opens a stranger's connection, writes `first` (if any) once connected; resolves when connected. */
function stranger(endpoint: string, first?: string): Promise<net.Socket> {
  return new Promise((resolve) => {
    const socket = net.createConnection(endpoint, () => {
      if (first !== undefined) socket.write(first);
      resolve(socket);
    });
    socket.on("error", () => undefined);
    strangers.push(socket);
  });
}

/** A stranger that connects again as soon as it is closed, while the test runs. */
async function reconnectingStranger(endpoint: string): Promise<void> {
  const socket = await stranger(endpoint);
  socket.once("close", () => {
    if (reconnecting) void reconnectingStranger(endpoint);
  });
}

const helloLine = (token: string) => JSON.stringify({ type: "hello", protocol: LIVE_PROTOCOL_VERSION, token, pid: 7, title: "stranger" }) + "\n";

function signal(n: number): SignalFrame {
  return { type: "signal", sessionId: `s-${n}`, branchId: null, id: `id-${n}`, kind: "HookSignal", createdAt: 1_700_000_000 + n, payload: { n } };
}

interface Case {
  name: string;
  limits: LiveServerLimits;
  /** Opens the strangers; resolves once they are connected. */
  hold(endpoint: string): Promise<unknown>;
}

const cases: Case[] = [
  {
    name: "64 idle connections that never say hello (the default maxConnections)",
    limits: { helloTimeoutMs: 60_000 },
    hold: (endpoint) => Promise.all(Array.from({ length: 64 }, () => stranger(endpoint))),
  },
  {
    name: "300 idle connections, more than maxPendingConnections",
    limits: { helloTimeoutMs: 60_000 },
    hold: (endpoint) => Promise.all(Array.from({ length: 300 }, () => stranger(endpoint))),
  },
  {
    name: "8 idle connections with maxConnections 8",
    limits: { helloTimeoutMs: 60_000, maxConnections: 8 },
    hold: (endpoint) => Promise.all(Array.from({ length: 8 }, () => stranger(endpoint))),
  },
  {
    name: "64 connections each holding a partial hello line",
    limits: { helloTimeoutMs: 60_000 },
    hold: (endpoint) => Promise.all(Array.from({ length: 64 }, () => stranger(endpoint, '{"type":"hello","protocol":'))),
  },
  {
    name: "64 idle connections that reconnect as soon as they are closed",
    limits: { helloTimeoutMs: 500 },
    hold: (endpoint) => {
      reconnecting = true;
      return Promise.all(Array.from({ length: 64 }, () => reconnectingStranger(endpoint)));
    },
  },
  {
    name: "64 connections that send a hello with a wrong token",
    limits: { helloTimeoutMs: 60_000 },
    hold: (endpoint) => Promise.all(Array.from({ length: 64 }, () => stranger(endpoint, helloLine("0".repeat(32))))),
  },
];

describe("the live server cannot be locked out by connections without the token", () => {
  it.each(cases)("$name: a program with the token connects 7 times out of 7", async ({ limits, hold }) => {
    const store = new SignalStore();
    server = await LiveServer.start({ onFrame: (peer, frame, bytes) => store.handleFrame(peer, frame, bytes), onDisconnect: (peer) => store.disconnect(peer) }, limits);
    const live = server;
    await hold(live.endpoint);
    for (let attempt = 0; attempt < 7; attempt++) {
      const program = new LiveConnection(parseLiveEnv(live.environmentValue)!, `program-${attempt}`);
      program.send(signal(attempt));
      await until(store, () => store.runs().some((run) => run.title === `program-${attempt}` && run.sessions.has(`s-${attempt}`)));
      await program.close();
    }
    expect(live.stats.refusedConnections).toBe(0);
  });

  it("past maxPendingConnections the oldest silent connection is closed and counted, not the newcomer", async () => {
    server = await LiveServer.start({ onFrame: () => undefined }, { helloTimeoutMs: 60_000, maxPendingConnections: 8 });
    const first = await stranger(server.endpoint);
    const closed = new Promise<void>((resolve) => first.once("close", () => resolve()));
    await Promise.all(Array.from({ length: 8 }, () => stranger(server!.endpoint)));
    await closed;
    expect(server.stats.displacedConnections).toBe(1);
  });

  it("a silent connection is closed after the hello timeout even when the server is far from any limit", async () => {
    server = await LiveServer.start({ onFrame: () => undefined }, { helloTimeoutMs: 200 });
    const socket = await stranger(server.endpoint);
    await new Promise<void>((resolve) => socket.once("close", () => resolve()));
    expect(server.stats.helloTimeouts).toBe(1);
    expect(server.stats.refusedConnections).toBe(0);
  });
});
