import { afterEach, describe, expect, it } from "vitest";
import { LiveConnection, parseLiveEnv, type SignalFrame } from "@hooklens/runtime/live";
import { LiveServer } from "../../client/src/signals/liveServer.js";
import { SignalStore, type SignalStoreLimits } from "../../client/src/signals/signalStore.js";
import { untilStore } from "./storeChanges.js";

// What the Signals view keeps is bounded in bytes as well as in count: frames of 16 KB through
// the real socket server never hold more than `maxMegabytes` of signal text.

const MB = 1024 * 1024;
let server: LiveServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function bigSignal(n: number, sessionId: string, bytes = 16 * 1024): SignalFrame {
  return { type: "signal", sessionId, branchId: null, id: `id-${n}`, kind: "HookSignal", createdAt: 1_700_000_000 + n, payload: { point: "tool.post", text: "x".repeat(bytes) } };
}

const until = untilStore;

async function stream(title: string, frames: number, sessions = 1, close = true): Promise<LiveConnection> {
  const program = new LiveConnection(parseLiveEnv(server!.environmentValue)!, title);
  for (let n = 0; n < frames; n++) {
    program.send(bigSignal(n, `${title}-s${n % sessions}`));
    // Let the socket drain now and then: the runtime drops what it cannot queue.
    if (n % 200 === 199) await program.flush();
  }
  await program.flush();
  if (close) await program.close();
  return program;
}

async function start(limits: SignalStoreLimits): Promise<SignalStore> {
  const store = new SignalStore(limits);
  server = await LiveServer.start({ onFrame: (peer, frame, bytes) => store.handleFrame(peer, frame, bytes), onDisconnect: (peer) => store.disconnect(peer) });
  return store;
}

const cases = [
  { name: "one session of 20,000 frames of 16 KB", frames: 20_000, sessions: 1, maxMegabytes: 8 },
  { name: "20,000 frames of 16 KB over 50 sessions", frames: 20_000, sessions: 50, maxMegabytes: 8 },
  { name: "2,000 frames of 16 KB with a 1 MB bound", frames: 2_000, sessions: 3, maxMegabytes: 1 },
];

describe("the Signals view's memory is bounded in bytes", () => {
  it.each(cases)("$name: never more than maxMegabytes held, the newest kept, the rest counted", async ({ frames, sessions, maxMegabytes }) => {
    const store = await start({ maxMegabytes });
    let peak = 0;
    store.onDidChange(() => (peak = Math.max(peak, store.bytes)));
    await stream("big", frames, sessions);
    await until(store, () => store.runs().some((run) => !run.connected));
    const run = store.runs()[0]!;
    const held = [...run.sessions.values()].reduce((sum, session) => sum + session.signals.length, 0);
    const evicted = [...run.sessions.values()].reduce((sum, session) => sum + session.evicted, 0);
    expect(peak).toBeLessThanOrEqual(maxMegabytes * MB);
    expect(store.bytes).toBe([...run.sessions.values()].reduce((sum, session) => sum + session.sizes.reduce((a, b) => a + b, 0), 0));
    expect(held + evicted).toBe(frames);
    expect(store.stats.evictedForBytes).toBe(evicted);
    // The newest signal is always kept.
    const newest = [...run.sessions.values()].flatMap((session) => session.signals).map((frame) => Number(frame.id.slice(3)));
    expect(Math.max(...newest)).toBe(frames - 1);
  });

  it("ended runs go before a connected run's signals", async () => {
    const store = await start({ maxMegabytes: 2 });
    await stream("ended", 100);
    await until(store, () => store.runs().some((run) => run.title === "ended" && !run.connected));
    const live = await stream("streaming", 100, 1, false);
    await until(store, () => store.runs().some((run) => run.title === "streaming" && run.sessions.get("streaming-s0")?.signals.length === 100));
    expect(store.runs().map((run) => run.title)).toEqual(["streaming"]);
    expect(store.stats.evictedRuns).toBe(1);
    expect(store.stats.evictedForBytes).toBe(0);
    await live.close();
  });

  it("a lowered maxMegabytes applies at once; removing and clearing give the bytes back", async () => {
    const store = new SignalStore();
    store.addRecordedSession("/tmp/a.sqlite", "a", Array.from({ length: 200 }, (_, n) => bigSignal(n, "a")));
    store.addRecordedSession("/tmp/b.sqlite", "b", Array.from({ length: 200 }, (_, n) => bigSignal(n, "b")));
    expect(store.bytes).toBeGreaterThan(6 * MB);
    store.setLimits({ maxMegabytes: 4 });
    expect(store.bytes).toBeLessThanOrEqual(4 * MB);
    expect(store.runs().map((run) => run.recordedFrom)).toEqual(["/tmp/b.sqlite"]);
    store.removeRun(store.runs()[0]!.connectionId);
    expect(store.bytes).toBe(0);
    store.addRecordedSession("/tmp/a.sqlite", "a", [bigSignal(0, "a")]);
    store.clear();
    expect(store.bytes).toBe(0);
  });
});
