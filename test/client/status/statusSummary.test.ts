import { describe, expect, it } from "vitest";
import type { LivePeer } from "../../../client/src/signals/liveServer.js";
import { SignalStore } from "../../../client/src/signals/signalStore.js";
import { statusSummary } from "../../../client/src/status/statusSummary.js";
import { hookFrame } from "../timeline/frames.js";

const peer = (connectionId: number): LivePeer => ({
  connectionId,
  hello: { type: "hello", protocol: 1, token: "0123456789abcdef", pid: 100 + connectionId, title: "agent.mjs" },
});

describe("statusSummary", () => {
  it("says nothing is streaming when the store is empty", () => {
    expect(statusSummary(new SignalStore())).toMatchObject({ text: "$(pulse) HookLens 0 signals", live: 0, signals: 0 });
  });

  it("counts live programs and the signals held, with a grouped count and a tooltip in words", () => {
    const store = new SignalStore();
    store.handleFrame(peer(1), peer(1).hello);
    store.handleFrame(peer(2), peer(2).hello);
    for (let i = 0; i < 1_204; i++) store.handleFrame(peer(i % 2 ? 1 : 2), hookFrame("tool.pre", 1_800_000_000 + i, { toolName: "t", callId: `c${i}` }));
    const summary = statusSummary(store);
    expect(summary.text).toBe("$(broadcast) HookLens 2 live · 1,204 signals");
    expect(summary.tooltip).toBe("2 programs are streaming signals.\n1,204 signals held from 2 runs.\nClick to show the HookLens Signals view.");
  });

  it("stops counting a program as live once it said bye", () => {
    const store = new SignalStore();
    store.handleFrame(peer(1), peer(1).hello);
    store.handleFrame(peer(1), hookFrame("session.start", 1_800_000_000, {}));
    store.handleFrame(peer(1), { type: "bye" });
    expect(statusSummary(store)).toMatchObject({ text: "$(pulse) HookLens 1 signal", live: 0 });
  });
});
