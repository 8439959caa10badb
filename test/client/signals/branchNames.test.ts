// A branch's row says whose branch it is once the session's signals name it: a run of a named
// branch (createAgent names its branch after the AgentSpec) carries the name on its RunStart, and a
// `branch.create` hook may declare an agent name, which wins (as the OpenTelemetry export names
// its invoke_agent span). Signals from real runs, streamed over a real socket.
import { describe, expect, it } from "vitest";
import { HookPoint, Session } from "@hooklens/runtime";
import { SignalTreeModel } from "../../../client/src/signals/model/treeModel.js";
import type { SignalStore } from "../../../client/src/signals/signalStore.js";
import { streamRun } from "./agentRun.js";

/** The labels of the session's branch rows, ids shortened to `…`. */
function branchRows(store: SignalStore): string[] {
  const model = new SignalTreeModel(store);
  const session = model.children(model.roots()[0]!)[0]!;
  return model
    .children(session)
    .filter((node) => node.type === "branch")
    .map((node) => model.view(node).label.replace(/[0-9a-f]{8}/, "…"));
}

describe("the Signals view names a branch after its agent", () => {
  it("by its run's branch name, by a branch.create agent name (which wins), and not at all when nothing names it", async () => {
    const { store } = await streamRun(async () => {
      const session = new Session();
      const hooks = session.hooks;
      const named = session.newBranch({ name: "helpdesk" });
      await named.observedRun(() => named.emit({ step: 1 }));
      const declared = session.newBranch({ name: "inner-name" });
      await declared.observedRun(async () => {
        await declared.emit({ step: 2 });
        await hooks.emit(HookPoint.BRANCH_CREATE, { branchId: declared.id, agentName: "triage" });
      });
      const plain = session.newBranch();
      await plain.observedRun(() => plain.emit({ step: 3 }));
      await Promise.all([named, declared, plain].map((branch) => branch.drainSignals()));
    });
    expect(branchRows(store)).toEqual(["branch helpdesk (…)", "branch triage (…)", "branch …"]);
  });
});
