import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  LIVE_PROTOCOL_VERSION,
  LiveConnection,
  LiveSink,
  MAX_FRAME_BYTES,
  parseLiveEnv,
  type SignalFrame,
} from "@hooklens/runtime/live";
import { Signal, configureSignals, encodeSignal } from "@hooklens/runtime";
import { LiveServer } from "../../client/src/signals/liveServer.js";
import { SignalStore } from "../../client/src/signals/signalStore.js";
import { untilStore } from "./storeChanges.js";

let server: LiveServer | undefined;
let store: SignalStore;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function startServer(): Promise<LiveServer> {
  store = new SignalStore();
  server = await LiveServer.start({ onFrame: (peer, frame) => store.handleFrame(peer, frame), onDisconnect: (peer) => store.disconnect(peer) });
  return server;
}

function signalFrame(n: number, sessionId = "session-1"): SignalFrame {
  return { type: "signal", sessionId, branchId: null, id: `id-${n}`, kind: "HookSignal", createdAt: 1_700_000_000 + n, payload: { point: "tool.post", n } };
}

const until = (predicate: () => boolean): Promise<void> => untilStore(store, predicate);

/** A raw client that writes exactly the given bytes and reports when the server closes it. */
function rawClient(endpoint: string, ...chunks: (string | Buffer)[]): Promise<"closed"> {
  return new Promise((resolve) => {
    const socket = net.createConnection(endpoint, () => {
      for (const chunk of chunks) socket.write(chunk);
    });
    socket.on("error", () => undefined);
    socket.on("close", () => resolve("closed"));
  });
}

const hello = (token: string) => JSON.stringify({ type: "hello", protocol: LIVE_PROTOCOL_VERSION, token, pid: 42, title: "raw" }) + "\n";

describe("live signal transport", () => {
  it("delivers the runtime's hello and signal frames into the store, under their session", async () => {
    const live = await startServer();
    const connection = new LiveConnection(parseLiveEnv(live.environmentValue)!, "agent.ts");
    connection.send(signalFrame(1));
    connection.send(signalFrame(2, "session-2"));
    await until(() => store.allSignals().length === 2);
    const [run] = store.runs();
    expect(run).toMatchObject({ title: "agent.ts", pid: process.pid, connected: true });
    expect([...run!.sessions.keys()]).toEqual(["session-1", "session-2"]);
    await connection.close();
    await until(() => store.runs()[0]!.connected === false);
  });

  it("closes a connection whose hello carries the wrong token and uses none of its frames", async () => {
    const live = await startServer();
    const wrong = "0".repeat(32);
    await expect(rawClient(live.endpoint, hello(wrong), JSON.stringify(signalFrame(1)) + "\n")).resolves.toBe("closed");
    expect(store.runs()).toEqual([]);
    expect(live.stats.rejectedConnections).toBe(1);
  });

  it("rejects a connection that starts with anything but a hello", async () => {
    const live = await startServer();
    await rawClient(live.endpoint, JSON.stringify(signalFrame(1)) + "\n");
    await rawClient(live.endpoint, Buffer.from([0xff, 0xfe, 0x00, 0x0a]));
    expect(live.stats.rejectedConnections).toBe(2);
    expect(store.runs()).toEqual([]);
  });

  it("skips malformed lines after a valid hello and keeps the good ones", async () => {
    const live = await startServer();
    const socket = net.createConnection(live.endpoint);
    socket.write(hello(live.token));
    socket.write("not json\n");
    socket.write(JSON.stringify({ type: "signal", sessionId: "" }) + "\n");
    socket.write(JSON.stringify({ type: "mystery" }) + "\n");
    socket.write(JSON.stringify(signalFrame(7)) + "\n");
    await until(() => store.allSignals().length === 1);
    expect(live.stats.malformedLines).toBe(3);
    expect(store.allSignals()[0]!.id).toBe("id-7");
    socket.destroy();
  });

  it("discards a line over 64 KiB, in one chunk or many, and reads the next line", async () => {
    const live = await startServer();
    const socket = net.createConnection(live.endpoint);
    socket.write(hello(live.token));
    socket.write("x".repeat(MAX_FRAME_BYTES + 1) + "\n");
    for (let i = 0; i < 5; i++) socket.write("y".repeat(MAX_FRAME_BYTES / 2));
    socket.write("\n" + JSON.stringify(signalFrame(8)) + "\n");
    await until(() => store.allSignals().length === 1);
    expect(live.stats.oversizedLines).toBe(2);
    socket.destroy();
  });

  it("keeps multibyte characters intact when a frame arrives split mid-character", async () => {
    const live = await startServer();
    const socket = net.createConnection(live.endpoint);
    socket.write(hello(live.token));
    const frame = { ...signalFrame(9), payload: { text: "héllo — 🙂" } };
    const bytes = Buffer.from(JSON.stringify(frame) + "\n");
    const cut = bytes.indexOf(Buffer.from("🙂")) + 2;
    socket.write(bytes.subarray(0, cut));
    setImmediate(() => socket.write(bytes.subarray(cut)));
    await until(() => store.allSignals().length === 1);
    expect(store.allSignals()[0]!.payload).toEqual({ text: "héllo — 🙂" });
    socket.destroy();
  });

  it("bounds what the runtime holds by bytes (maxPendingBytes) and reports what it dropped in a dropped frame", async () => {
    const live = await startServer();
    const frames = Array.from({ length: 105 }, (_, i) => signalFrame(100 + i, `session-${i % 4}`));
    const bound = frames.slice(0, 100).reduce((sum, frame) => sum + JSON.stringify(frame).length + 1, 0);
    const previous = configureSignals({ maxPendingBytes: bound });
    try {
      const connection = new LiveConnection(parseLiveEnv(live.environmentValue)!);
      // All sent before the socket connects: the bound fills, the rest are counted.
      for (const frame of frames) connection.send(frame);
      await until(() => store.signalCount() === 100 && store.runs()[0]!.dropped === 5);
      await connection.close();
    } finally {
      configureSignals(previous);
    }
  });

  it("never throws into the program when the editor is gone", async () => {
    const connection = new LiveConnection({ endpoint: "/nonexistent/hooklens.sock", token: "a".repeat(32) });
    expect(() => connection.send(signalFrame(1))).not.toThrow();
    await connection.flush();
    connection.send(signalFrame(2));
    expect(connection.pendingDropped).toBe(2);
    expect(connection.droppedTotal).toBe(2);
    await expect(connection.close()).resolves.toBeUndefined();
  });

  it("drops an oversized frame on the runtime side instead of sending it", async () => {
    const live = await startServer();
    const connection = new LiveConnection(parseLiveEnv(live.environmentValue)!);
    connection.send({ ...signalFrame(1), payload: { big: "z".repeat(MAX_FRAME_BYTES) } });
    connection.send(signalFrame(2));
    await until(() => store.allSignals().length === 2 && store.runs()[0]!.dropped === 1);
    // The drop is shown where it happened: a marker just before the next signal that arrived.
    expect(store.allSignals().map((s) => [s.kind, s.payload["count"] ?? s.payload["n"]])).toEqual([
      ["SignalsDropped", 1],
      ["HookSignal", 2],
    ]);
    expect(live.stats.oversizedLines).toBe(0);
    await connection.close();
  });
});

describe("a LiveSink batch as bytes", () => {
  it("delivers multibyte text intact across write chunks, and reports a line over the frame limit as dropped", async () => {
    const live = await startServer();
    const sink = new LiveSink(new LiveConnection(parseLiveEnv(live.environmentValue)!));
    // Texts of one-, two-, three- and four-byte characters; enough of them to span several socket writes.
    const texts = ["plain", "café – ünïcødé", "数据库连接", "🚀🤖 agents", "mixed é 数 🚀 end"];
    const signals = Array.from({ length: 3_000 }, (_, i) => new Signal({ data: { n: i, text: texts[i % texts.length]!.repeat(20) } }));
    const oversized = new Signal({ id: "x".repeat(MAX_FRAME_BYTES), data: { n: -1 } });
    const batch = [...signals.slice(0, 1_500), oversized, ...signals.slice(1_500)].map((signal) => encodeSignal(signal, 1_700_000_000));
    sink.write("session-1", batch);
    await until(() => store.allSignals().filter((s) => s.kind === "Signal").length === 3_000 && store.runs()[0]!.dropped === 1);
    const received = store.allSignals().filter((s) => s.kind === "Signal");
    expect(received.map((s) => (s.payload["data"] as { text: string }).text)).toEqual(signals.map((s) => (s.data as { text: string }).text));
    expect(received.map((s) => s.id)).toEqual(signals.map((s) => s.id));
    expect(live.stats.oversizedLines).toBe(0);
    await sink.close();
  });

  it("keeps every batch intact when batches follow each other faster than the socket writes them", async () => {
    // Chunks are reused once their write completes: reusing one any earlier would overwrite
    // lines of an earlier batch still waiting in the backlog with those of a later one.
    const live = await startServer();
    const sink = new LiveSink(new LiveConnection(parseLiveEnv(live.environmentValue)!));
    const batches = Array.from({ length: 8 }, (_, b) =>
      Array.from({ length: 400 }, (_, i) => new Signal({ data: { batch: b, n: i, text: `batch ${b} line ${i} `.repeat(10) } })),
    );
    for (const batch of batches) sink.write("session-1", batch.map((signal) => encodeSignal(signal, 1_700_000_000)));
    // Everything is sent once flushed (close alone drains for at most liveExitDrainMs, which a
    // loaded machine can outlast); after close the editor has read all it will get.
    await sink.flush();
    await sink.close();
    await until(() => store.runs()[0]?.connected === false);
    const all = batches.flat();
    const received = store.allSignals().filter((s) => s.kind === "Signal");
    expect(live.stats.malformedLines).toBe(0);
    expect(received.map((s) => s.id)).toEqual(all.map((s) => s.id));
    expect(received.map((s) => (s.payload["data"] as { text: string }).text)).toEqual(all.map((s) => (s.data as { text: string }).text));
  });
});

describe("HOOKLENS_LIVE parsing", () => {
  it("reads endpoint and token, and turns live streaming off for malformed values", () => {
    expect(parseLiveEnv(`/tmp/x/live.sock?token=${"ab".repeat(16)}`)).toEqual({ endpoint: "/tmp/x/live.sock", token: "ab".repeat(16) });
    expect(parseLiveEnv(undefined)).toBeNull();
    expect(parseLiveEnv("/tmp/x/live.sock")).toBeNull();
    expect(parseLiveEnv("/tmp/x/live.sock?token=NOTHEX")).toBeNull();
    expect(parseLiveEnv(`?token=${"ab".repeat(16)}`)).toBeNull();
  });
});
