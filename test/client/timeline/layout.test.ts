import { describe, expect, it } from "vitest";
import { SessionModel } from "../../../client/src/signals/model/sessionModel.js";
import { formatDuration } from "../../../client/src/signals/model/format.js";
import { signalDocumentText } from "../../../client/src/signals/model/signalDocument.js";
import { layoutTimeline } from "../../../client/src/timeline/layout.js";
import { timelineLayoutSchema } from "../../../client/src/timeline/protocol.js";
import { hookFrame, kindFrame, recordedRun } from "./frames.js";

const T = 1_800_000_000; // POSIX seconds of the run's first signal

describe("layoutTimeline", () => {
  it("gives an empty run no bars", () => {
    expect(layoutTimeline([])).toEqual({ startedAt: 0, durationMs: 0, bars: [] });
  });

  it("makes one bar per tool call from pre to post, starting where the call's own duration says it ran", () => {
    const layout = layoutTimeline([
      hookFrame("session.start", T, { model: "m" }),
      hookFrame("tool.pre", T + 0.010, { toolName: "searchDocs", callId: "c1" }),
      hookFrame("tool.post", T + 0.025, { toolName: "searchDocs", callId: "c1", duration: 0.012 }),
      hookFrame("session.end", T + 0.030, { status: "completed" }),
    ]);
    const tool = layout.bars.find((bar) => bar.kind === "tool")!;
    expect(tool).toMatchObject({ id: "tool:session-1:c1", label: "searchDocs", startMs: 10, endMs: 25, status: "ok", depth: 1, signalCount: 2 });
    // The call's own duration, as the tree says it (not the span of its signals' timestamps).
    expect(tool.detail).toBe("12 ms");
    // Hook phases: the pre tick, then the post phase covering the call's 12 ms of execution.
    expect(tool.phases.map((phase) => [phase.label, phase.startMs, phase.endMs, phase.status])).toEqual([
      ["tool.pre", 10, 10, "ok"],
      ["tool.post", 13, 25, "ok"],
    ]);
    expect(layout.durationMs).toBe(30);
    const session = layout.bars.find((bar) => bar.kind === "session")!;
    expect(session).toMatchObject({ startMs: 0, endMs: 30, status: "ok", depth: 0, detail: "4 signals", signalCount: 4 });
    expect(session.phases.map((phase) => phase.label)).toEqual(["session.start", "session.end"]);
  });

  it("marks a failed call as an error with its message, and a clicked bar opens the error signal", () => {
    const error = hookFrame("tool.error", T + 0.005, { toolName: "refund", callId: "c2", error: { name: "RangeError", message: "needs a manager" }, duration: 0.002 });
    const [, bar] = layoutTimeline([hookFrame("tool.pre", T, { toolName: "refund", callId: "c2" }), error]).bars;
    expect(bar).toMatchObject({ status: "error", signalId: error.id, detail: "2 ms · error: needs a manager" });
    expect(bar!.phases[1]).toMatchObject({ label: "tool.error", status: "error" });
  });

  it("joins a denial to its call by call id and says why it was denied", () => {
    const denial = kindFrame("ToolCallBlocked", T + 0.001, { toolName: "deleteFile", callId: "c3", reason: "paths outside drafts/", hook: "tool.pre:guard" });
    const bars = layoutTimeline([hookFrame("tool.pre", T, { toolName: "deleteFile", callId: "c3" }), denial]).bars.filter((bar) => bar.kind === "tool");
    expect(bars).toHaveLength(1);
    expect(bars[0]).toMatchObject({ status: "denied", signalId: denial.id, detail: "denied: paths outside drafts/" });
    expect(bars[0]!.phases.map((phase) => phase.status)).toEqual(["ok", "denied"]);
  });

  it("shows a denial without a call id as a bar of its own, a model call when it names no tool", () => {
    const bars = layoutTimeline([kindFrame("HookShortCircuit", T, { toolName: null, callId: null, reason: "cached answer", hook: "Cache.beforeLlm" })]).bars;
    expect(bars.filter((bar) => bar.kind !== "session")).toEqual([expect.objectContaining({ kind: "model", label: "model call", status: "denied" })]);
  });

  it("labels a denial of a flow node with the flow and node it names", () => {
    const bars = layoutTimeline([kindFrame("HookShortCircuit", T, { flowName: "support", nodeName: "classify", reason: "skipped", hook: "replay.beforeNode" })]).bars;
    expect(bars.filter((bar) => bar.kind !== "session")).toEqual([expect.objectContaining({ label: "flow node support/classify", status: "denied" })]);
  });

  it("keeps a call without its end open (running), so a live run shows it growing", () => {
    const [, bar] = layoutTimeline([hookFrame("session.start", T, {}), hookFrame("tool.pre", T + 0.002, { toolName: "slow", callId: "c9" })]).bars;
    expect(bar).toMatchObject({ status: "open", detail: "0 ms · running" });
  });

  it("groups a model call's phases and chunks, pairing calls without ids in order, with chunk and token counts", () => {
    const layout = layoutTimeline([
      hookFrame("api.pre_call", T, { model: "scripted-model" }),
      hookFrame("api.stream_chunk", T + 0.010, { chunk: "a" }),
      hookFrame("api.stream_chunk", T + 0.020, { chunk: "b" }),
      hookFrame("api.stream_chunk", T + 0.030, { chunk: "c" }),
      hookFrame("api.post_call", T + 0.041, { model: "scripted-model", tokens: { total: 41 } }),
      hookFrame("api.pre_call", T + 0.050, { model: "scripted-model" }),
      hookFrame("api.post_call", T + 0.060, { model: "scripted-model", tokens: 7 }),
    ]);
    const models = layout.bars.filter((bar) => bar.kind === "model");
    expect(models.map((bar) => [bar.label, bar.startMs, bar.endMs, bar.detail, bar.phases.length, bar.status])).toEqual([
      ["model scripted-model", 0, 41, "41 ms · 3 chunks · 41 tokens", 5, "ok"],
      ["model scripted-model", 50, 60, "10 ms · 7 tokens", 2, "ok"],
    ]);
  });

  it("nests calls inside the branch run that contains them, and marks a failed run", () => {
    const branch = { branchId: "b1" };
    const layout = layoutTimeline([
      kindFrame("RunStart", T, {}, branch),
      hookFrame("tool.pre", T + 0.001, { toolName: "inside", callId: "in" }, branch),
      hookFrame("tool.post", T + 0.002, { toolName: "inside", callId: "in" }, branch),
      kindFrame("RunFailed", T + 0.003, { data: { message: "boom" } }, branch),
      hookFrame("tool.pre", T + 0.004, { toolName: "after", callId: "out" }, branch),
      hookFrame("tool.post", T + 0.005, { toolName: "after", callId: "out" }, branch),
    ]);
    const byLabel = Object.fromEntries(layout.bars.map((bar) => [bar.label, bar]));
    expect(byLabel["run on branch b1"]).toMatchObject({ kind: "run", depth: 1, status: "error", detail: "3 ms · error: boom" });
    expect(byLabel["inside"]!.depth).toBe(2);
    expect(byLabel["after"]!.depth).toBe(1);
  });

  it("keeps sessions apart: the same call id in two sessions is two bars, and bars are in start order", () => {
    const layout = layoutTimeline([
      hookFrame("tool.pre", T + 0.002, { toolName: "b", callId: "c" }, { sessionId: "two" }),
      hookFrame("tool.pre", T, { toolName: "a", callId: "c" }, { sessionId: "one" }),
    ]);
    expect(layout.bars.map((bar) => bar.id)).toEqual(["session:one", "tool:one:c", "session:two", "tool:two:c"]);
    expect(layout.bars.map((bar) => bar.startMs)).toEqual([0, 0, 2, 2]);
  });

  it("lays out what the real runtime records: tool calls through act() and a streamed model call, with their hook phases", async () => {
    const layout = layoutTimeline(await recordedRun());
    expect(timelineLayoutSchema.parse(layout)).toEqual(layout);
    const calls = layout.bars.filter((bar) => bar.kind === "tool" || bar.kind === "model");
    expect(calls.map((bar) => [bar.kind, bar.label, bar.status])).toEqual([
      ["model", "model scripted-model", "ok"],
      ["tool", "searchDocs", "ok"],
      ["tool", "refund", "error"],
      ["tool", "deleteFile", "denied"],
    ]);
    const [model, search, refund, deleteFile] = calls;
    // The model call: its service hooks and its chunks, counted, with the tokens it reported.
    expect(model!.phases.map((phase) => phase.label)).toEqual(expect.arrayContaining(["pre_invocation", "post_invocation"]));
    expect(model!.detail).toMatch(/^[\d.]+ ms · \d+ chunks · \d+ tokens$/);
    // A tool call's phases are its hooks: pre and post, never the start/end brackets.
    expect(search!.phases.map((phase) => phase.label)).toEqual(["tool.pre", "tool.post"]);
    expect(refund!.detail).toMatch(/error: needs a manager$/);
    expect(deleteFile!.detail).toBe("denied: deleteFile is not allowed here");
    expect(layout.bars.filter((bar) => bar.kind === "session")).toEqual([expect.objectContaining({ status: "ok" })]);
  });

  it("uses the call signals alone when no hook ran: the bar spans the reported duration and says the outcome", () => {
    const layout = layoutTimeline([
      kindFrame("ToolCallStarted", T, { toolName: "fetch", callId: "e1", source: "executor" }),
      kindFrame("ToolCallStarted", T + 0.001, { toolName: "fetch", callId: "a1", source: "act", parentCallId: "e1" }),
      kindFrame("ToolCallFinished", T + 0.009, { toolName: "fetch", callId: "a1", status: "error", durationMs: 8, error: { name: "Error", message: "timeout" } }),
      kindFrame("ToolCallFinished", T + 0.010, { toolName: "fetch", callId: "e1", status: "skipped", durationMs: 10, reason: "served from cache" }),
      kindFrame("ModelCallStarted", T + 0.011, { callId: "m1", model: "gpt", stream: true, source: "imodel" }),
      kindFrame("ModelStreamChunks", T + 0.015, { callId: "m1", chunks: 32, firstAt: T + 0.012, lastAt: T + 0.015 }),
      kindFrame("ModelCallFinished", T + 0.020, { callId: "m1", status: "cancelled", durationMs: 9, chunks: 40, inputTokens: 5, outputTokens: 7 }),
    ]);
    const byId = Object.fromEntries(layout.bars.map((bar) => [bar.id, bar]));
    expect(byId["tool:session-1:e1"]).toMatchObject({ status: "denied", detail: "denied: served from cache", startMs: 0, endMs: 10, depth: 1, phases: [] });
    expect(byId["tool:session-1:a1"]).toMatchObject({ status: "error", detail: "8 ms · error: timeout", startMs: 1, endMs: 9, parentId: "tool:session-1:e1", depth: 2 });
    expect(byId["model:session-1:m1"]).toMatchObject({ label: "model gpt", status: "error", detail: "9 ms · cancelled", startMs: 11, endMs: 20 });
    expect(byId["model:session-1:m1"]!.phases).toEqual([expect.objectContaining({ label: "32 chunks", startMs: 12, endMs: 15 })]);
  });
});

describe("one duration, one order, one unit across the tree, the timeline and documents", () => {
  it("3,000 calls finishing in the same millisecond keep the tree's call order, and each bar says the tree's duration", () => {
    const frames = [];
    for (let i = 0; i < 3_000; i++) {
      // Timestamps at millisecond resolution, durations measured finer: computed starts cross.
      const at = T + Math.floor(i / 7) / 1000;
      frames.push(hookFrame("tool.pre", at, { toolName: "t", callId: `c${i}` }));
      frames.push(hookFrame(i % 2 ? "tool.post" : "tool.error", at, { toolName: "t", callId: `c${i}`, duration: ((i * 37) % 500) / 1e6, error: { message: "x" } }));
    }
    const model = new SessionModel("session-1");
    for (const frame of frames) model.add(frame);
    const bars = layoutTimeline(frames).bars.filter((bar) => bar.kind === "tool");
    expect(bars.map((bar) => bar.id)).toEqual(Array.from({ length: 3_000 }, (_, i) => `tool:session-1:c${i}`));
    for (const bar of bars.slice(0, 50)) {
      const group = model.group("tool", bar.id.split(":")[2]!)!;
      // What the tree's row and tooltip write for the same call.
      expect(bar.detail.split(" · ")[0]).toBe(formatDuration(group.durationMs!));
    }
  });

  it("a signal document writes durations as the tree does, never raw seconds", () => {
    const model = new SessionModel("s");
    const entry = model.add(hookFrame("tool.error", T, { toolName: "refund", callId: "c", duration: 0.000021011999999927865, error: { message: "x" } }, { sessionId: "s" }));
    const text = signalDocumentText(entry);
    expect(text).toContain('"duration": "0.021 ms"');
    expect(text).not.toContain("0.0000210");
  });
});
