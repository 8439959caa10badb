import { describe, expect, it } from "vitest";
import { readSignal } from "../../../client/src/signals/model/signalFacts.js";
import { KNOWN_KIND_KEYS, kindStyle } from "../../../client/src/signals/model/signalKinds.js";
import { SessionModel } from "../../../client/src/signals/model/sessionModel.js";
import { callLabel, signalTooltip } from "../../../client/src/signals/model/labels.js";
import { CallGroup } from "../../../client/src/signals/model/callGroup.js";
import { frame, hook } from "./frames.js";

describe("signal labels: what happened, in words", () => {
  const cases: Array<[string, ReturnType<typeof frame>, string, string | null]> = [
    ["a session start names its model", hook("session.start", { sessionId: "s", model: "gpt-x" }), "session started · gpt-x", null],
    ["a failed session end is an error", hook("session.end", { sessionId: "s", status: "failed" }), "session ended · failed", "error"],
    ["tool.pre shows its arguments", hook("tool.pre", { toolName: "search", callId: "c1", argsSummary: '{"q":1}' }), 'tool.pre search {"q":1}', null],
    ["tool.post shows duration (seconds → ms) and result", hook("tool.post", { toolName: "search", callId: "c1", resultSummary: "[]", duration: 0.012 }), "tool.post search 12 ms → []", null],
    ["tool.error names the error", hook("tool.error", { toolName: "refund", callId: "c2", error: { name: "RangeError", message: "too much" }, duration: null }), "tool.error refund: RangeError: too much", "error"],
    ["a named TOOL_PRE guard that blocked", frame("ToolCallBlocked", { toolName: "refund", callId: "c3", reason: "amount > 100", hook: "tool.pre:guard" }), "refund — blocked by guard: amount > 100", "denied"],
    ["a guardrail block", frame("GuardrailBlock", { toolName: "rm", callId: "c4", reason: "destructive", hook: "GuardrailHook.beforeTool" }), "rm — blocked by GuardrailHook.beforeTool: destructive", "denied"],
    ["a short circuit", frame("HookShortCircuit", { toolName: "search", callId: "c5", reason: "skipped", hook: "CacheHook.beforeTool" }), "search — skipped by CacheHook.beforeTool", "denied"],
    ["a flow node a middleware hook skipped, by flow and node", frame("HookShortCircuit", { flowName: "support", nodeName: "classify", reason: "skipped", hook: "replay.beforeNode" }), "flow node support/classify — skipped by replay.beforeNode", "denied"],
    ["a skipped flow node recorded before denials named it", frame("HookShortCircuit", { reason: "skipped", hook: "replay.beforeNode" }), "flow node — skipped by replay.beforeNode", "denied"],
    ["the observer gate", frame("GateDenied", { data: { function: "rm" } }), "rm — denied by the observer gate", "denied"],
    ["a message by its role", frame("MessageAdded", { messageRef: { role: "assistant" } }), "message · assistant", null],
    ["a run that failed", frame("RunFailed", { data: { name: "Error", message: "boom" } }), "run failed: Error: boom", "error"],
    ["a run that finished, with its usage", frame("RunEnd", { durationMs: 1204, inputTokens: 30, outputTokens: 11 }), "run finished 1,204 ms 41 tokens", null],
    ["a drop marker", frame("SignalsDropped", { count: 1234, reason: "bound" }), "1,234 signals dropped here", null],
    ["a finished model call", frame("ModelCallFinished", { callId: "m1", status: "ok", durationMs: 40, chunks: 3, inputTokens: 30, outputTokens: 11 }), "model call finished 3 chunks 41 tokens", null],
    ["a failed tool call record", frame("ToolCallFinished", { toolName: "refund", callId: "c6", status: "error", durationMs: 2, error: { name: "Error", message: "no" } }), "refund failed: Error: no", "error"],
    ["a run event", frame("RunEvent", { event: "budget.warning", runId: "r", payload: { spent: 0.9 } }), 'budget.warning {"spent":0.9}', null],
    ["a user's own kind", frame("OrderShipped", { data: { order: 7 } }), 'OrderShipped {"order":7}', null],
  ];
  it.each(cases)("%s", (_reason, signal, label, problem) => {
    const facts = readSignal(signal);
    expect(facts.label).toBe(label);
    expect(facts.problem).toBe(problem);
  });

  it("a skipped flow node's row (a loose signal: it has no call id) and its tooltip name the node", () => {
    const signal = frame("HookShortCircuit", { flowName: "support", nodeName: "classify", reason: "skipped by a ShortCircuit from replay.beforeNode", hook: "replay.beforeNode" });
    const facts = readSignal(signal);
    expect([facts.node, facts.toolName, facts.call]).toEqual(["support/classify", null, null]);
    const tooltip = signalTooltip({ seq: 0, frame: signal, facts, group: null });
    expect(tooltip.split("\n")).toContain("- node: `support/classify`");
    const model = new SessionModel("s");
    model.add(signal);
    expect(model.items.map((item) => ("facts" in item ? item.facts.label : callLabel(item)))).toEqual(["flow node support/classify — skipped by replay.beforeNode"]);
  });

  it("a GateDenied names why and which gate from its metadata, and says the gate refused it when a recording has neither", () => {
    const withReason = readSignal(frame("GateDenied", { data: { function: "rm", callId: "c7" }, metadata: { reason: "the gate returned false", hook: "observer.gate:noDeletes" } }));
    expect([withReason.label, withReason.detail, withReason.hook, withReason.call?.callId]).toEqual(["rm — denied by the observer gate", "the gate returned false", "observer.gate:noDeletes", "c7"]);
    const older = readSignal(frame("GateDenied", { data: { function: "rm" } }));
    expect([older.detail, older.hook]).toEqual(["the observer's gate refused it", null]);
  });

  it("has a friendly name, icon and colour for every kind the runtime emits and every hook point", () => {
    const runtimeKinds = ["Signal", "HookSignal", "MessageAdded", "GateDenied", "RunStart", "RunFailed", "RunEnd", "ToolCallBlocked", "HookShortCircuit", "GuardrailBlock", "SignalsDropped"];
    const points = ["session.start", "session.end", "branch.create", "api.pre_call", "api.post_call", "api.stream_chunk", "tool.pre", "tool.post", "tool.error", "message.add", "artifact.created"];
    for (const key of [...runtimeKinds, ...points]) {
      expect(KNOWN_KIND_KEYS).toContain(key);
      expect(kindStyle(key).name).not.toBe(key);
    }
    expect(kindStyle("ToolCallBlocked")).toMatchObject({ icon: "shield" });
    expect(kindStyle("tool.error").color).toBe("problemsErrorIcon.foreground");
    expect(kindStyle("SomethingElse")).toEqual({ name: "SomethingElse", icon: "pulse", color: null });
  });

  it("never throws on a payload of the wrong shape", () => {
    for (const payload of [{}, { point: 7 }, { point: "tool.pre", payload: "x" }, { callId: 3, toolName: [] }, { hookRuns: "no" }]) {
      for (const kind of ["HookSignal", "ToolCallBlocked", "ModelCallFinished", "Signal", "MessageAdded", "SignalsDropped"]) {
        expect(() => readSignal(frame(kind, payload))).not.toThrow();
      }
    }
  });
});

describe("call groups", () => {
  it("a model call groups its start, chunk batches and finish, and shows the hook phases it reports", () => {
    const model = new SessionModel("session-1");
    model.add(frame("ModelCallStarted", { callId: "m1", source: "imodel", model: "scripted-model", provider: "scripted", stream: true }, { at: 0 }));
    model.add(frame("ModelStreamChunks", { callId: "m1", chunks: 2, firstAt: 1, lastAt: 1.01 }, { at: 5 }));
    model.add(frame("ModelStreamChunks", { callId: "m1", chunks: 1, firstAt: 1.01, lastAt: 1.02 }, { at: 9 }));
    model.add(
      frame("ModelCallFinished", {
        callId: "m1",
        status: "ok",
        durationMs: 41,
        inputTokens: 30,
        outputTokens: 11,
        hookRuns: [{ hookType: "pre_invocation", status: "completed", startedAt: 1, durationMs: 0.4, error: null }],
      }, { at: 41 }),
    );
    const [group] = model.items;
    expect(group).toBeInstanceOf(CallGroup);
    expect(callLabel(group as CallGroup)).toBe("model scripted-model 3 chunks 41 tokens");
    expect((group as CallGroup).durationMs).toBe(41);
    expect((group as CallGroup).members.at(-1)!.facts.hookPhases).toEqual([{ hookType: "pre_invocation", status: "completed", durationMs: 0.4, error: null, startedAt: 1, source: null }]);
  });

  it("a model call reported on the session bus groups api.pre_call, its chunks and api.post_call", () => {
    const model = new SessionModel("session-1");
    model.add(hook("api.pre_call", { model: "scripted-model", callId: "model-1" }, { at: 0 }));
    for (const [i, chunk] of ["Refunds ", "are ", "automatic."].entries()) model.add(hook("api.stream_chunk", { model: "scripted-model", callId: "model-1", chunk }, { at: 5 * (i + 1) }));
    model.add(hook("api.post_call", { model: "scripted-model", callId: "model-1", tokens: { total: 41 } }, { at: 20 }));
    expect(model.items).toHaveLength(1);
    const group = model.items[0] as CallGroup;
    expect(callLabel(group)).toBe("model scripted-model 3 chunks 41 tokens");
    expect(group.durationMs).toBeCloseTo(20, 2);
    expect(group.members.map((entry) => entry.facts.label)).toEqual(["api.pre_call scripted-model", 'api.stream_chunk "Refunds "', 'api.stream_chunk "are "', 'api.stream_chunk "automatic."', "api.post_call scripted-model 41 tokens"]);
  });

  it("model calls reported without a call id pair in order per branch: each pre_call opens one, its post_call closes it", () => {
    const model = new SessionModel("session-1");
    model.add(hook("api.pre_call", { model: "a" }, { at: 0 }));
    model.add(hook("api.pre_call", { model: "b" }, { at: 1, branchId: "other" }));
    model.add(hook("api.stream_chunk", { chunk: "x" }, { at: 2 }));
    model.add(hook("api.post_call", { model: "a", tokens: 3 }, { at: 3 }));
    model.add(hook("api.post_call", { model: "b", tokens: 4 }, { at: 4, branchId: "other" }));
    model.add(hook("api.post_call", { model: "c", tokens: 5 }, { at: 5 }));
    expect(model.items.map((item) => callLabel(item as CallGroup))).toEqual(["model a 1 chunk 3 tokens", "model b 4 tokens", "model c 5 tokens"]);
    expect(model.modelCalls).toBe(3);
  });

  it("a tool call's start and finish records join its hook signals; a nested call sits inside its parent", () => {
    const model = new SessionModel("session-1");
    model.add(frame("ToolCallStarted", { toolName: "search", callId: "outer", source: "executor" }, { at: 0 }));
    model.add(frame("ToolCallStarted", { toolName: "search", callId: "inner", source: "act", parentCallId: "outer" }, { at: 1 }));
    model.add(hook("tool.pre", { toolName: "search", callId: "inner", argsSummary: "{}" }, { at: 1 }));
    model.add(hook("tool.error", { toolName: "search", callId: "inner", error: "down", duration: 0.003 }, { at: 4 }));
    model.add(frame("ToolCallFinished", { toolName: "search", callId: "outer", status: "error", durationMs: 5, error: { name: "Error", message: "down" } }, { at: 5 }));
    expect(model.items).toHaveLength(1);
    const outer = model.items[0] as CallGroup;
    expect(outer.children.map((child) => child.callId)).toEqual(["inner"]);
    expect(outer.errors).toBe(2);
    expect(model.errorRows).toBe(1);
    expect(callLabel(outer)).toBe("search — failed: Error: down");
  });

  it("keeps counting per row when the oldest signals are dropped and the rest regrouped", () => {
    const model = new SessionModel("session-1");
    for (let i = 0; i < 10; i++) {
      model.add(hook("tool.pre", { toolName: "t", callId: `c${i}`, argsSummary: "{}" }, { at: i * 10 }));
      model.add(hook("tool.error", { toolName: "t", callId: `c${i}`, error: "e", duration: 0.001 }, { at: i * 10 + 1 }));
    }
    expect(model.errorRows).toBe(10);
    model.dropOldest(6);
    expect(model.items).toHaveLength(7);
    expect(model.errorRows).toBe(7);
    expect(model.entries[0]!.seq).toBe(7);
  });

  it("drops old signals as regrouping what is left would group it: every cut of calls, failures, denials and loose rows", () => {
    const frames = [
      hook("tool.pre", { toolName: "a", callId: "a1", argsSummary: "{}" }, { at: 0 }),
      hook("tool.pre", { toolName: "b", callId: "b1", argsSummary: "{}" }, { at: 1 }),
      hook("tool.error", { toolName: "a", callId: "a1", error: "down", duration: 0.001 }, { at: 2 }),
      frame("ToolCallFinished", { toolName: "a", callId: "a1", status: "error", durationMs: 2, error: "down" }, { at: 3 }),
      frame("SignalsDropped", { count: 5, reason: "bound" }, { at: 4 }),
      hook("tool.post", { toolName: "b", callId: "b1", resultSummary: "ok", duration: 0.004 }, { at: 5 }),
      frame("ToolCallBlocked", { toolName: "rm", callId: "d1", reason: "no", hook: "tool.pre:guard" }, { at: 6 }),
      hook("api.pre_call", { model: "m" }, { at: 7 }),
      frame("GateDenied", { data: { function: "rm" } }, { at: 8 }),
      hook("api.post_call", { model: "m", tokens: 3 }, { at: 9 }),
      frame("RunFailed", { data: { name: "Error", message: "boom" } }, { at: 10 }),
    ];
    // Rows compared as a set: a call whose first signal went keeps its place (rows never jump), where regrouping would move it.
    const shape = (model: SessionModel): unknown => ({
      rows: model.items.map((item) => JSON.stringify(item instanceof CallGroup ? [callLabel(item), item.errors, item.denials, item.members.length] : item.facts.label)).sort(),
      counts: [model.size, model.errorRows, model.deniedRows, model.droppedSignals, model.toolCalls, model.modelCalls],
    });
    for (let cut = 0; cut <= frames.length; cut++) {
      const evicted = new SessionModel("session-1");
      for (const signal of frames) evicted.add(signal);
      evicted.dropOldest(cut);
      const fresh = new SessionModel("session-1");
      for (const signal of frames.slice(cut)) fresh.add(signal);
      expect(shape(evicted), `after dropping ${cut}`).toEqual(shape(fresh));
    }
  });

  it("keeps a nested call inside its parent while the parent has signals left, and lifts it out once the parent has none", () => {
    const model = new SessionModel("session-1");
    model.add(frame("ToolCallStarted", { toolName: "outer", callId: "o1", source: "executor" }, { at: 0 }));
    model.add(frame("ToolCallStarted", { toolName: "inner", callId: "i1", source: "act", parentCallId: "o1" }, { at: 1 }));
    model.add(hook("tool.error", { toolName: "inner", callId: "i1", error: "down", duration: 0.001 }, { at: 2 }));
    model.add(frame("ToolCallFinished", { toolName: "outer", callId: "o1", status: "ok", durationMs: 3 }, { at: 3 }));
    model.dropOldest(1); // the outer call's start: its finish is still there
    expect(model.items.map((item) => callLabel(item as CallGroup))).toEqual(["outer 3 ms"]);
    expect((model.items[0] as CallGroup).children.map((child) => child.callId)).toEqual(["i1"]);
    expect([model.errorRows, model.toolCalls]).toEqual([1, 2]);

    const lifted = new SessionModel("session-1");
    lifted.add(frame("ToolCallStarted", { toolName: "outer", callId: "o1", source: "executor" }, { at: 0 }));
    lifted.add(frame("ToolCallStarted", { toolName: "inner", callId: "i1", source: "act", parentCallId: "o1" }, { at: 1 }));
    lifted.add(hook("tool.error", { toolName: "inner", callId: "i1", error: "down", duration: 0.001 }, { at: 2 }));
    lifted.dropOldest(1);
    const inner = lifted.items[0] as CallGroup;
    expect([lifted.items.length, inner.callId, inner.parent, lifted.errorRows, lifted.toolCalls, lifted.group("tool", "o1")]).toEqual([1, "i1", null, 1, 1, undefined]);
  });
});
