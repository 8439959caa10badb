import { describe, expect, it } from "vitest";
import { HookPoint, Session, Tool } from "@hooklens/runtime";
import { SignalTreeModel } from "../../../client/src/signals/model/treeModel.js";
import { streamRun } from "./agentRun.js";

describe("calls through a branch's act()", () => {
  it("are one row each: ok, failed, and blocked by a named guard", async () => {
    const { store } = await streamRun(async () => {
      const session = new Session();
      const bus = session.hooks;
      const branch = session.newBranch();
      branch.registerTools([
        new Tool({ name: "searchDocs", funcCallable: ({ query }: { query: string }) => [`${query}: found`] }),
        new Tool({
          name: "refund",
          funcCallable: ({ amount }: { amount: number }) => {
            if (amount > 50) throw new RangeError(`refund of ${amount} needs a manager`);
            return { refunded: amount };
          },
        }),
      ]);
      bus.on(HookPoint.TOOL_PRE, function guard({ toolName, argsSummary }) {
        if (toolName === "refund" && (JSON.parse(argsSummary) as { amount: number }).amount > 100) throw new Error("amount > 100");
      });
      await bus.emit(HookPoint.SESSION_START, { sessionId: session.id, model: "scripted" });
      await branch.act({ function: "searchDocs", arguments: { query: "refunds" } });
      await branch.act({ function: "refund", arguments: { amount: 70 } });
      await branch.act({ function: "refund", arguments: { amount: 500 } }).catch(() => undefined);
      await bus.emit(HookPoint.SESSION_END, { sessionId: session.id, status: "completed" });
      await branch.drainSignals();
    });
    const model = new SignalTreeModel(store);
    const [sessionNode] = model.children(model.roots()[0]!);
    const rows = model.children(sessionNode!);
    const branch = rows.find((row) => row.type === "branch")!;
    const calls = model.children(branch).map((node) => model.view(node).label);
    expect(calls).toEqual([expect.stringMatching(/^searchDocs \S+ ms$/), "refund — failed: RangeError: refund of 70 needs a manager", "refund — blocked by guard: amount > 100"]);
  });
});
