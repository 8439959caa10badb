import { describe, expect, it } from "vitest";
import { CallGroup } from "../../../client/src/signals/model/callGroup.js";
import type { GroupedView } from "../../../client/src/signals/model/branchedRows.js";
import { SessionModel } from "../../../client/src/signals/model/sessionModel.js";
import { frame, hook } from "./frames.js";

/** A view as comparable data: each branch's rows in order with its counts, and the top-level rows (order aside: an evicted branch head may leave them in another order than a regrouping would). */
function shapeOf(view: GroupedView): unknown {
  const name = (item: unknown): string => (item instanceof CallGroup ? `call ${item.callId}` : `signal ${(item as { seq: number }).seq}`);
  const branches = [...view.branches.values()].map((branch) => ({ branch: branch.branchId, rows: branch.items.map(name), errors: branch.errors, denials: branch.denials, signals: branch.signals }));
  const rows = view.rows.map((row) => ("items" in row ? `branch ${row.branchId}` : name(row))).sort();
  return { branches: branches.sort((a, b) => a.branch.localeCompare(b.branch)), rows };
}

/** Deterministic pseudo-random numbers: the same run every time. */
function random(seed: number): () => number {
  let state = seed;
  return () => ((state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
}

describe("the grouped view, kept up to date instead of rebuilt", () => {
  it("matches a regrouping after every batch of signals and every eviction: calls on two branches, failures, denials, loose signals", () => {
    const next = random(7);
    const model = new SessionModel("session-1");
    let at = 0;
    let call = 0;
    const open: Array<{ id: string; branch: string; tool: string }> = [];
    for (let step = 0; step < 400; step++) {
      const roll = next();
      at++;
      if (roll < 0.3 || open.length === 0) {
        // A call starts: its tool.pre names no branch (hook signals never do).
        const started = { id: `c${call++}`, branch: next() < 0.7 ? "b1" : "b2", tool: next() < 0.5 ? "refund" : "searchDocs" };
        open.push(started);
        model.add(hook("tool.pre", { toolName: started.tool, callId: started.id, argsSummary: "{}" }, { at }));
      } else if (roll < 0.55) {
        const done = open.splice(Math.floor(next() * open.length), 1)[0]!;
        if (next() < 0.2) model.add(hook("tool.error", { toolName: done.tool, callId: done.id, error: "down", duration: 0.001 }, { at }));
        else model.add(hook("tool.post", { toolName: done.tool, callId: done.id, resultSummary: "ok", duration: 0.001 }, { at }));
        // Its finish names the branch it ran on.
        model.add(frame("ToolCallFinished", { toolName: done.tool, callId: done.id, status: "ok", durationMs: 1, metadata: { branchId: done.branch } }, { at, branchId: done.branch }));
      } else if (roll < 0.65) {
        const denied = open.splice(Math.floor(next() * open.length), 1)[0]!;
        model.add(frame("ToolCallBlocked", { toolName: denied.tool, callId: denied.id, reason: "no", hook: "tool.pre:guard", metadata: { branchId: denied.branch } }, { at, branchId: denied.branch }));
      } else if (roll < 0.72) {
        model.add(frame("RunFailed", { data: { name: "Error", message: "boom" }, metadata: { branchId: "b2" } }, { at, branchId: next() < 0.5 ? "b2" : null }));
      } else if (roll < 0.8) {
        model.add(frame("MessageAdded", { messageRef: { id: `m${step}`, role: "user" } }, { at, branchId: "b1" }));
      } else if (roll < 0.9) {
        model.dropOldest(1 + Math.floor(next() * 6));
      } else {
        // A redraw: what the tree asks for between batches.
        const kept = shapeOf(model.grouped());
        expect(kept, `step ${step}`).toEqual(shapeOf(model.regroup()));
      }
    }
    expect(shapeOf(model.grouped())).toEqual(shapeOf(model.regroup()));
  });
});
