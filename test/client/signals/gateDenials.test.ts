import { describe, expect, it } from "vitest";
import { Session, Tool, ToolCallAction } from "@hooklens/runtime";
import { CallGroup } from "../../../client/src/signals/model/callGroup.js";
import { SessionModel } from "../../../client/src/signals/model/sessionModel.js";
import { layoutSessions } from "../../../client/src/timeline/layout.js";
import { frame } from "./frames.js";
import { streamRun } from "./agentRun.js";

/** The kinds of a call's own signals, in order. */
const kindsOf = (group: CallGroup): string[] => group.members.map((entry) => entry.facts.kindKey);

describe("a gate denial in the Signals view", () => {
  it("joins the call it names: two concurrent calls of one tool on one branch, the second denied", async () => {
    let denied: string | null = null;
    const { session } = await streamRun(async () => {
      const session = new Session();
      const branch = session.newBranch();
      branch.registerTools([new Tool({ name: "refund", funcCallable: ({ amount }: { amount: number }) => ({ refunded: amount }) })]);
      session.observer.gate((subject) => {
        if (!(subject instanceof ToolCallAction) || (subject.arguments["amount"] as number) <= 100) return true;
        denied = subject.callId;
        return false;
      });
      await Promise.all([
        branch.act({ function: "refund", arguments: { amount: 20 } }),
        branch.act({ function: "refund", arguments: { amount: 500 } }),
      ]);
      await branch.drainSignals();
    });
    const model = session.model;
    const calls = model.items.filter((item): item is CallGroup => item instanceof CallGroup);
    expect(calls).toHaveLength(2);
    expect(denied).not.toBeNull();
    const deniedCall = model.group("tool", denied!)!;
    const allowedCall = calls.find((call) => call !== deniedCall)!;
    expect(kindsOf(deniedCall)).toContain("GateDenied");
    expect(kindsOf(allowedCall)).not.toContain("GateDenied");
    expect([deniedCall.denials > 0, allowedCall.denials]).toEqual([true, 0]);
    // The denial is nowhere else: no loose row, one denied row.
    expect(model.items.filter((item) => !(item instanceof CallGroup) && item.facts.kindKey === "GateDenied")).toEqual([]);
    expect(model.deniedRows).toBe(1);
    // The timeline reads the same grouping: the denied call's bar is marked, the allowed one's is not.
    const bars = layoutSessions([model]).bars.filter((bar) => bar.kind === "tool");
    expect(Object.fromEntries(bars.map((bar) => [bar.id.split(":").pop(), bar.status]))).toEqual({ [deniedCall.callId]: "denied", [allowedCall.callId]: "ok" });
  });

  describe("naming no call (an action authorized by hand, a recording made before actions carried the call id)", () => {
    const started = (callId: string, options: { at: number; branchId?: string; toolName?: string }) =>
      frame("ToolCallStarted", { toolName: options.toolName ?? "rm", callId, source: "act", metadata: { branchId: options.branchId ?? "b1" } }, { at: options.at, branchId: options.branchId ?? "b1" });
    const gateDenied = (at: number, branchId = "b1") =>
      frame("GateDenied", { data: { function: "rm", arguments: {}, branchId }, metadata: { branchId } }, { at, branchId });
    const finished = (callId: string, at: number) =>
      frame("ToolCallFinished", { toolName: "rm", callId, status: "ok", durationMs: 1, metadata: { branchId: "b1" } }, { at, branchId: "b1" });

    it("joins the one act() call of that tool still open on its branch", () => {
      const model = new SessionModel("session-1");
      model.add(started("done", { at: 0 })); // finished: no longer a candidate
      model.add(finished("done", 1));
      model.add(started("other-branch", { at: 2, branchId: "b2" }));
      model.add(started("other-tool", { at: 3, toolName: "ls" }));
      model.add(started("open", { at: 4 }));
      const denial = model.add(gateDenied(5));
      expect(denial.group?.callId).toBe("open");
      expect(model.group("tool", "open")!.denials).toBe(1);
    });

    it("stays a row of its own when two calls of that tool are open on its branch (a guess could mark the allowed one)", () => {
      const model = new SessionModel("session-1");
      model.add(started("first", { at: 0 }));
      model.add(started("second", { at: 1 }));
      const denial = model.add(gateDenied(2));
      expect(denial.group).toBeNull();
      expect(model.items).toContain(denial);
      expect([model.group("tool", "first")!.denials, model.group("tool", "second")!.denials]).toEqual([0, 0]);
    });

    it("stays a row of its own when no call of that tool is open", () => {
      const model = new SessionModel("session-1");
      model.add(started("done", { at: 0 }));
      model.add(finished("done", 1));
      expect(model.add(gateDenied(2)).group).toBeNull();
    });
  });
});
