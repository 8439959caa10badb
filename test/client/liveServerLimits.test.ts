import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { LIVE_PROTOCOL_VERSION, LiveConnection, parseLiveEnv, type SignalFrame } from "@hooklens/runtime/live";
import { LiveServer, type LiveServerLimits } from "../../client/src/signals/liveServer.js";
import { SignalStore, type SignalStoreLimits } from "../../client/src/signals/signalStore.js";
import { untilStore } from "./storeChanges.js";

let server: LiveServer | undefined;
const clients: net.Socket[] = [];
afterEach(async () => {
  for (const socket of clients.splice(0)) socket.destroy();
  await server?.close();
  server = undefined;
});

async function start(limits: LiveServerLimits = {}, storeLimits: SignalStoreLimits = {}): Promise<{ live: LiveServer; store: SignalStore }> {
  const store = new SignalStore(storeLimits);
  server = await LiveServer.start({ onFrame: (peer, frame) => store.handleFrame(peer, frame), onDisconnect: (peer) => store.disconnect(peer) }, limits);
  return { live: server, store };
}

/** A hostile client: connects, writes what it is given, never reads; resolves when the server closes it. */
function connect(endpoint: string): { socket: net.Socket; connected: Promise<void>; closed: Promise<void> } {
  const socket = net.createConnection(endpoint);
  clients.push(socket);
  socket.on("error", () => undefined);
  return {
    socket,
    connected: new Promise((resolve) => socket.once("connect", () => resolve())),
    closed: new Promise((resolve) => socket.once("close", () => resolve())),
  };
}

const hello = (token: string, title = "hostile") =>
  JSON.stringify({ type: "hello", protocol: LIVE_PROTOCOL_VERSION, token, pid: 42, title }) + "\n";

function signal(n: number, sessionId: string): SignalFrame {
  return { type: "signal", sessionId, branchId: null, id: `id-${n}`, kind: "HookSignal", createdAt: 1_700_000_000 + n, payload: { n } };
}

const until = untilStore;

describe("the live socket server against hostile clients", () => {
  it("closes a connection that never says hello once the hello timeout passes, and counts it", async () => {
    const { live } = await start({ helloTimeoutMs: 100 });
    const silent = connect(live.endpoint);
    await silent.closed;
    expect(live.stats.helloTimeouts).toBe(1);
  });

  it("a greeted connection outlives the hello timeout", async () => {
    const { live, store } = await start({ helloTimeoutMs: 100 });
    const client = connect(live.endpoint);
    await client.connected;
    client.socket.write(hello(live.token));
    await until(store, () => store.runs().length === 1);
    // Wait past the timeout by a real round trip that itself takes longer than it, then prove the connection still works.
    await new Promise((resolve) => setTimeout(resolve, 300));
    client.socket.write(JSON.stringify(signal(1, "s")) + "\n");
    await until(store, () => store.signalCount() === 1);
    expect(live.stats.helloTimeouts).toBe(0);
    expect(client.socket.destroyed).toBe(false);
  });

  it("closes a connection that sends a long line without a newline before its hello, holding at most the hello bound", async () => {
    const { live } = await start({ helloTimeoutMs: 60_000, maxHelloBytes: 1024 });
    const client = connect(live.endpoint);
    await client.connected;
    client.socket.write("x".repeat(32 * 1024)); // below the 64 KiB frame limit, no newline
    await client.closed;
    expect(live.stats.oversizedLines).toBe(1);
    expect(live.stats.rejectedConnections).toBe(1);
  });

  it("refuses programs greeting beyond maxConnections, counts them, and accepts again when one closes", async () => {
    const { live, store } = await start({ helloTimeoutMs: 60_000, maxConnections: 3 });
    const held = Array.from({ length: 3 }, () => connect(live.endpoint));
    await Promise.all(held.map((client) => client.connected));
    // Greet them, so the server has surely accepted all three before the extra ones arrive.
    for (const [i, client] of held.entries()) client.socket.write(hello(live.token, `held-${i}`));
    await until(store, () => store.runs().length === 3);
    const extra = [connect(live.endpoint), connect(live.endpoint)];
    await Promise.all(extra.map((client) => client.connected));
    for (const client of extra) client.socket.write(hello(live.token, "extra"));
    await Promise.all(extra.map((client) => client.closed));
    expect(live.stats.refusedConnections).toBe(2);
    held[0]!.socket.destroy();
    await until(store, () => store.runs().some((run) => !run.connected));
    const again = connect(live.endpoint);
    await again.connected;
    again.socket.write(hello(live.token, "again"));
    await until(store, () => store.runs().some((run) => run.title === "again"));
    expect(live.stats.refusedConnections).toBe(2);
  });

  it("keeps at most maxSessionsPerRun sessions of a run, evicting the oldest and counting them", async () => {
    const { live, store } = await start({}, { maxSessionsPerRun: 10 });
    const client = connect(live.endpoint);
    await client.connected;
    client.socket.write(hello(live.token));
    for (let i = 0; i < 50; i++) client.socket.write(JSON.stringify(signal(i, `session-${i}`)) + "\n");
    await until(store, () => store.stats.evictedSessions === 40);
    const [run] = store.runs();
    expect([...run!.sessions.keys()]).toEqual(Array.from({ length: 10 }, (_, i) => `session-${40 + i}`));
  });

  it("keeps at most maxRuns runs, evicting the oldest ended ones and never a connected one", async () => {
    const { live, store } = await start({}, { maxRuns: 3 });
    const connected = new LiveConnection(parseLiveEnv(live.environmentValue)!, "still-running");
    connected.send(signal(0, "s"));
    await until(store, () => store.signalCount() === 1);
    for (let i = 1; i <= 5; i++) {
      const ended = new LiveConnection(parseLiveEnv(live.environmentValue)!, `ended-${i}`);
      ended.send(signal(i, "s"));
      await ended.close();
      await until(store, () => store.runs().some((run) => run.title === `ended-${i}` && !run.connected));
    }
    expect(store.runs().map((run) => run.title)).toEqual(["still-running", "ended-4", "ended-5"]);
    expect(store.stats.evictedRuns).toBe(3);
    await connected.close();
  });

  it("records opened from files count against maxRuns too, and the one just opened is kept", () => {
    const store = new SignalStore({ maxRuns: 2 });
    for (let i = 0; i < 4; i++) store.addRecordedSession(`/tmp/r${i}.sqlite`, `session-${i}`, [signal(i, `session-${i}`)]);
    expect(store.runs().map((run) => run.recordedFrom)).toEqual(["/tmp/r2.sqlite", "/tmp/r3.sqlite"]);
    expect(store.stats.evictedRuns).toBe(2);
  });
});

describe("limits changed while the server runs (a settings change, no reload)", () => {
  it("maxConnections: lowered, the next connection is refused; raised again, it is accepted", async () => {
    const { live, store } = await start({ helloTimeoutMs: 60_000, maxConnections: 4 });
    const first = connect(live.endpoint);
    await first.connected;
    first.socket.write(hello(live.token, "first"));
    await until(store, () => store.runs().length === 1);
    live.setLimits({ helloTimeoutMs: 60_000, maxConnections: 1 });
    expect(live.limits.maxConnections).toBe(1);
    const refused = connect(live.endpoint);
    await refused.connected;
    refused.socket.write(hello(live.token, "refused"));
    await refused.closed;
    expect(live.stats.refusedConnections).toBe(1);
    live.setLimits({ helloTimeoutMs: 60_000, maxConnections: 4 });
    const second = connect(live.endpoint);
    await second.connected;
    second.socket.write(hello(live.token, "second"));
    await until(store, () => store.runs().some((run) => run.title === "second"));
    expect(live.stats.refusedConnections).toBe(1);
  });

  it("maxLineBytes: lowered, the next long line of an open connection is refused", async () => {
    const { live, store } = await start();
    const client = connect(live.endpoint);
    await client.connected;
    client.socket.write(hello(live.token));
    const long = (n: number) => JSON.stringify({ ...signal(n, "s"), payload: { text: "x".repeat(8_000) } }) + "\n";
    client.socket.write(long(1));
    await until(store, () => store.signalCount() === 1);
    live.setLimits({ maxLineBytes: 4_096 });
    client.socket.write(long(2));
    client.socket.write(JSON.stringify(signal(3, "s")) + "\n");
    await until(store, () => store.signalCount() === 2);
    expect(live.stats.oversizedLines).toBe(1);
    expect(store.runs()[0]!.sessions.get("s")!.signals.map((frame) => frame.id)).toEqual(["id-1", "id-3"]);
  });

  it("helloTimeoutMs: the next connection gets the new timeout", async () => {
    const { live } = await start({ helloTimeoutMs: 60_000 });
    live.setLimits({ helloTimeoutMs: 100 });
    await connect(live.endpoint).closed;
    expect(live.stats.helloTimeouts).toBe(1);
  });

  it("store limits: lowered, what is held beyond them is evicted at once, counted, and the views told", () => {
    const store = new SignalStore();
    for (let i = 0; i < 4; i++) {
      const frames = Array.from({ length: 300 }, (_, n) => signal(n, `session-${i}`));
      store.addRecordedRun(`/tmp/r${i}.sqlite`, `r${i}`, new Map([[`session-${i}`, frames], [`other-${i}`, frames.slice(0, 1)]]));
    }
    let told = 0;
    store.onDidChange(() => told++);
    store.setLimits({ maxRuns: 2, maxSessionsPerRun: 1, maxSignalsPerSession: 100 });
    expect(told).toBe(1);
    expect(store.runs().map((run) => run.title)).toEqual(["r2", "r3"]);
    expect(store.stats.evictedRuns).toBe(2);
    for (const run of store.runs()) {
      expect([...run.sessions.keys()]).toEqual([`other-${run.title.slice(1)}`]);
      expect([...run.sessions.values()][0]!.signals).toHaveLength(1);
    }
    expect(store.stats.evictedSessions).toBe(2);
    store.setLimits({}); // back to the defaults: nothing more is evicted
    expect(store.limits.maxRuns).toBe(100);
    expect(store.runs()).toHaveLength(2);
  });

  it("maxSignalsPerSession: lowered, a session's oldest signals are evicted and counted", () => {
    const store = new SignalStore();
    store.addRecordedSession("/tmp/r.sqlite", "s", Array.from({ length: 500 }, (_, n) => signal(n, "s")));
    store.setLimits({ maxSignalsPerSession: 100 });
    const session = store.runs()[0]!.sessions.get("s")!;
    expect(session.signals).toHaveLength(100);
    expect(session.signals[0]!.id).toBe("id-400");
    expect(session.evicted).toBe(400);
  });
});
