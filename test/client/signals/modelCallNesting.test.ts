// An Executor model call made through an IModel that records its own calls: the IModel's call
// runs inside the Executor's and names it (`parentCallId` on its ModelCallStarted). The view nests
// it there, live and from a recording, as the OpenTelemetry export nests its `chat` span.
import { describe, expect, it } from "vitest";
import { BranchTools, Executor, IModel, IModelClient, ScriptedEndpoint, Session } from "@hooklens/runtime";
import { SqliteSignalStore } from "@hooklens/runtime/store";
import { CallGroup } from "../../../client/src/signals/model/callGroup.js";
import type { SessionModel } from "../../../client/src/signals/model/sessionModel.js";
import { SignalTreeModel, type TreeNode } from "../../../client/src/signals/model/treeModel.js";
import { readRecordedSession } from "../../../client/src/signals/recordingReader.js";
import { SignalStore } from "../../../client/src/signals/signalStore.js";
import { layoutSessions } from "../../../client/src/timeline/layout.js";
import { createTempDir } from "../../helpers/tempDir.js";
import { streamRun } from "./agentRun.js";

/** Two model calls by the Executor, each through a recorded IModel, on one branch. */
async function executorThroughIModel(session: Session): Promise<void> {
  const branch = session.newBranch();
  const model = new IModel({ endpoint: new ScriptedEndpoint({ model: "m-7", script: ["first", "second"] }), signals: branch });
  const executor = new Executor(new BranchTools(branch), { model: new IModelClient(model), signals: branch });
  const ctx = executor.context({ runId: "run-7" });
  await executor.callLlm({ messages: [{ role: "user", content: "one" }] }, ctx);
  await executor.callLlm({ messages: [{ role: "user", content: "two" }] }, ctx);
  await branch.drainSignals();
}

/** The view's rows under the session as indented labels. */
function rows(store: SignalStore): string[] {
  const model = new SignalTreeModel(store);
  const lines: string[] = [];
  const walk = (nodes: readonly TreeNode[], depth: number): void => {
    for (const node of nodes) {
      lines.push(`${"  ".repeat(depth)}${model.view(node).label.replace(/^branch [0-9a-f]{8}$/, "branch …")}`);
      if (node.type !== "signal" && node.type !== "phase") walk(model.children(node), depth + 1);
    }
  };
  walk(model.children(model.children(model.roots()[0]!)[0]!), 0);
  return lines;
}

/** One Executor call's rows: its start, the IModel call inside it, its finish. */
const EXECUTOR_CALL = [
  "  model m-7 2 tokens",
  "    model m-7 started",
  "    model m-7 2 tokens",
  "      model m-7 started",
  "      model call finished 2 tokens",
  "    model call finished 2 tokens",
];
const NESTED = ["branch …", ...EXECUTOR_CALL, ...EXECUTOR_CALL];

/** Each of the session's top-level model calls holds exactly the IModel call it made, and that one names it. */
function expectNested(model: SessionModel): void {
  const outer = model.items.filter((item): item is CallGroup => item instanceof CallGroup);
  expect(outer.map((call) => call.first.frame.payload["source"])).toEqual(["executor", "executor"]);
  for (const call of outer) {
    expect(call.children).toHaveLength(1);
    const [inner] = call.children;
    expect(inner!.first.frame.payload).toMatchObject({ source: "imodel", parentCallId: call.callId });
    expect(inner!.parent).toBe(call);
  }
  expect(model.modelCalls).toBe(4);
}

describe("an Executor model call through a recorded IModel, in the Signals view", () => {
  it("streamed live: the IModel's call is a row inside the Executor's call", async () => {
    const { store, session } = await streamRun(() => executorThroughIModel(new Session()));
    expectNested(session.model);
    expect(rows(store)).toEqual(NESTED);
  });

  it("on the timeline: the IModel's bar is indented under the Executor's", async () => {
    const { session } = await streamRun(() => executorThroughIModel(new Session()));
    const bars = layoutSessions([session.model]).bars.filter((bar) => bar.kind === "model");
    const outer = session.model.items.filter((item): item is CallGroup => item instanceof CallGroup);
    expect(bars).toHaveLength(4);
    for (const call of outer) {
      const bar = bars.find((b) => b.id.endsWith(call.callId))!;
      const inner = bars.filter((b) => b.parentId === bar.id);
      expect(inner.map((b) => b.id)).toEqual([expect.stringContaining(call.children[0]!.callId)]);
      expect(inner[0]!.depth).toBe(bar.depth + 1);
    }
  });

  it("read from a recording: the same nesting, from the persisted parentCallId", async () => {
    const temp = createTempDir("hooklens-nesting-");
    try {
      const file = temp.path("signals.db");
      const db = await SqliteSignalStore.open(file);
      const session = new Session();
      session.observer.bindDbPersistence(session.id, db);
      await executorThroughIModel(session);
      await session.observer.flush();
      await db.flush();
      db.close();
      const { frames } = await readRecordedSession(file, session.id);
      const store = new SignalStore();
      const run = store.addRecordedSession(file, session.id, frames);
      expectNested(run.sessions.get(session.id)!.model);
      expect(rows(store)).toEqual(NESTED);
    } finally {
      temp.dispose();
    }
  });
});
