import { describe, expect, it } from "vitest";
import { TimelineFeed } from "../../../client/src/timeline/feed.js";
import { layoutTimeline } from "../../../client/src/timeline/layout.js";
import { toWebviewSchema } from "../../../client/src/timeline/protocol.js";
import { hookFrame } from "./frames.js";

const T = 1_800_000_000;
const runs = [{ runId: 1, title: "agent.ts", live: true }];

describe("TimelineFeed", () => {
  it("sends the whole layout first, then only what changed as a live call ends, and nothing when idle", () => {
    const feed = new TimelineFeed(100);
    const pre = hookFrame("tool.pre", T, { toolName: "search", callId: "c1" });
    const first = feed.next(runs, 1, layoutTimeline([pre]));
    expect(toWebviewSchema.parse(first)).toMatchObject({ type: "reset", runId: 1, omittedBars: 0 });

    const post = hookFrame("tool.post", T + 0.004, { toolName: "search", callId: "c1" });
    const update = feed.next(runs, 1, layoutTimeline([pre, post]));
    expect(toWebviewSchema.parse(update)).toMatchObject({ type: "update", remove: [], durationMs: 4 });
    // The call's bar changed (it ended) and so did its session's; nothing else is resent.
    expect(update?.type === "update" && update.upsert.map((bar) => [bar.id, bar.status])).toEqual([
      ["session:session-1", "open"],
      ["tool:session-1:c1", "ok"],
    ]);
    expect(feed.next(runs, 1, layoutTimeline([pre, post]))).toBeNull();
  });

  it("resets when another run is shown or the webview reloads, and removes bars that went away", () => {
    const feed = new TimelineFeed(100);
    const frames = [hookFrame("tool.pre", T, { toolName: "a", callId: "1" }), hookFrame("tool.pre", T + 0.001, { toolName: "b", callId: "2" })];
    feed.next(runs, 1, layoutTimeline(frames));
    expect(feed.next(runs, 1, layoutTimeline(frames.slice(1)))).toMatchObject({ type: "update", remove: ["tool:session-1:1"] });
    expect(feed.next(runs, 2, layoutTimeline(frames))?.type).toBe("reset");
    feed.invalidate();
    expect(feed.next(runs, 2, layoutTimeline(frames))?.type).toBe("reset");
  });

  it("caps the bars it sends at the maximum, keeping the sessions and the newest calls", () => {
    const feed = new TimelineFeed(3);
    const frames = Array.from({ length: 5 }, (_, i) => hookFrame("tool.pre", T + i / 1000, { toolName: `t${i}`, callId: `c${i}` }));
    const message = feed.next(runs, 1, layoutTimeline(frames));
    expect(message?.type === "reset" && message.layout.bars.map((bar) => bar.label)).toEqual(["session session-", "t3", "t4"]);
    expect(message).toMatchObject({ omittedBars: 3 });
  });
});
