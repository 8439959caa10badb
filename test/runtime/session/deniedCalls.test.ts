// Denied calls are signals of their own kind: persisted, streamed, shown. A denied TOOL_PRE still
// records no HookSignal (the ADR's rule); the audit signal is separate.
import { describe, expect, it } from "vitest";
import {
  BranchTools,
  Executor,
  GateDenied,
  GuardrailBlock,
  GuardrailHook,
  Hook,
  HookPoint,
  HookShortCircuit,
  HookSignal,
  InMemorySignalStore,
  Session,
  ShortCircuit,
  Tool,
  ToolCallAction,
  ToolCallBlocked,
  createRunContext,
  runBefore,
  runOnError,
  type ToolInvocation,
} from "@hooklens/runtime";
import { invocationOf, specOf, useCapturedLogs } from "../middleware/support.js";

useCapturedLogs();

function sessionWithTool(): { session: Session; store: InMemorySignalStore } {
  const session = new Session();
  void session.hooks; // the bus exists before the branch is included
  const store = new InMemorySignalStore();
  session.observer.bindDbPersistence(session.id, store);
  const branch = session.newBranch();
  branch.registerTools(new Tool({ funcCallable: () => "done", name: "deleteFile" }));
  return { session, store };
}

describe("denied calls", () => {
  it("a TOOL_PRE guard that blocks records ToolCallBlocked (tool, call id, reason, handler) and still no HookSignal", async () => {
    const { session, store } = sessionWithTool();
    const branch = session.branches[1]!;
    session.hooks.on(HookPoint.TOOL_PRE, function noDeletes(payload) {
      if (payload.toolName === "deleteFile") throw new Error("deleting is not allowed");
    });
    await expect(branch.act({ function: "deleteFile", arguments: {} })).rejects.toThrow("deleting is not allowed");
    await session.observer.flush();
    const [blocked] = session.observer.byType(ToolCallBlocked);
    expect(blocked).toMatchObject({ toolName: "deleteFile", reason: "deleting is not allowed", hook: "tool.pre:noDeletes" });
    expect(blocked!.callId).toMatch(/^[0-9a-f-]{36}$/);
    expect(blocked!.metadata["branchId"]).toBe(branch.id);
    expect(session.observer.byType(HookSignal)).toEqual([]);
    const row = store.records.find((r) => r.kind === "ToolCallBlocked")!;
    expect(row.payload).toMatchObject({ toolName: "deleteFile", callId: blocked!.callId, reason: "deleting is not allowed", hook: "tool.pre:noDeletes" });
  });

  it("names the handler of a blocking chain that went asynchronous before it threw", async () => {
    const { session } = sessionWithTool();
    session.hooks.on(HookPoint.TOOL_PRE, async function first() {});
    session.hooks.on(HookPoint.TOOL_PRE, async function asyncGuard() {
      throw new Error("later no");
    });
    session.hooks.on(HookPoint.TOOL_PRE, async function third() {});
    await expect(session.branches[1]!.act({ function: "deleteFile", arguments: {} })).rejects.toThrow("later no");
    expect(session.observer.byType(ToolCallBlocked)[0]!.hook).toBe("tool.pre:asyncGuard");
  });

  it("a governance denial's GateDenied is persisted with the action (tool, call id), why and which gate", async () => {
    const { session, store } = sessionWithTool();
    session.gate(function noDeletes(subject) {
      return !(subject instanceof ToolCallAction && subject.function === "deleteFile");
    });
    await session.branches[1]!.act({ function: "deleteFile", arguments: {} });
    await session.observer.flush();
    const [denied] = session.observer.byType(GateDenied);
    expect(denied!.metadata).toMatchObject({ reason: "the gate returned false", hook: "observer.gate:noDeletes" });
    const rows = store.records.filter((r) => r.kind === "GateDenied");
    expect(rows).toHaveLength(1);
    expect(rows[0]!.payload["data"]).toMatchObject({ function: "deleteFile", callId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(rows[0]!.payload["metadata"]).toMatchObject({ reason: "the gate returned false", hook: "observer.gate:noDeletes" });
  });

  it("a gate that throws denies with the error as the reason", async () => {
    const { session } = sessionWithTool();
    session.gate(() => {
      throw new TypeError("no policy loaded");
    });
    expect(await session.authorize(new ToolCallAction({ function: "deleteFile" }))).toBe(false);
    expect(session.observer.byType(GateDenied)[0]!.metadata).toMatchObject({ reason: "the gate threw TypeError: no policy loaded", hook: "observer.gate:anonymous" });
  });

  it("a middleware ShortCircuit before a tool call records HookShortCircuit; a recovery from an error does not", async () => {
    const session = new Session();
    class Cached extends Hook {
      override name = "cached";
      override beforeTool(): ShortCircuit {
        return new ShortCircuit("from cache");
      }
      override onToolError(): ShortCircuit {
        return new ShortCircuit("recovered");
      }
    }
    const inv: ToolInvocation = invocationOf(specOf("search"), {}, createRunContext({ signals: session }));
    await runBefore([new Cached()], "beforeTool", inv);
    await runOnError([new Cached()], "onToolError", inv, new Error("x"));
    const signals = session.observer.byType(HookShortCircuit);
    expect(signals).toHaveLength(1);
    expect(signals[0]).toMatchObject({ toolName: "search", callId: "c1", hook: "cached.beforeTool" });
  });

  it("a flow node a middleware hook skipped is named by its flow and node; a tool denial's row has neither field", async () => {
    const { session, store } = sessionWithTool();
    class Replay extends Hook {
      override name = "replay";
      override beforeNode(): ShortCircuit {
        return new ShortCircuit({ topic: "billing" });
      }
    }
    const executor = new Executor(new BranchTools(session.branches[1]!), { hooks: [new Replay()] });
    const ctx = executor.context({ signals: session });
    expect(await executor.runNode("support", { name: "classify", run: () => ({ topic: "?" }) }, {}, ctx)).toEqual({ topic: "billing" });
    await expect(runBefore([new GuardrailHook(() => "looks like a password")], "beforeTool", invocationOf(specOf("search"), { q: "pw" }, ctx))).rejects.toThrow();
    await session.observer.flush();
    const [skipped] = session.observer.byType(HookShortCircuit);
    expect(skipped).toMatchObject({ toolName: null, callId: null, flowName: "support", nodeName: "classify", hook: "replay.beforeNode" });
    const row = store.records.find((r) => r.kind === "HookShortCircuit")!;
    expect(row.payload).toMatchObject({ flowName: "support", nodeName: "classify", hook: "replay.beforeNode", reason: "skipped by a ShortCircuit from replay.beforeNode" });
    // A tool denial's null node fields are left out of the row, as before they existed.
    const [blocked] = session.observer.byType(GuardrailBlock);
    expect(blocked).toMatchObject({ toolName: "search", flowName: null, nodeName: null });
    const toolRow = store.records.find((r) => r.kind === "GuardrailBlock")!;
    expect(toolRow.payload).not.toHaveProperty("flowName");
    expect(toolRow.payload).not.toHaveProperty("nodeName");
  });

  it("a guardrail block records GuardrailBlock with its reason; without a recorder nothing is recorded", async () => {
    const session = new Session();
    const guard = new GuardrailHook(() => "looks like a password");
    const inv = invocationOf(specOf("search"), { q: "pw" }, createRunContext({ signals: session }));
    await expect(runBefore([guard], "beforeTool", inv)).rejects.toThrow();
    expect(session.observer.byType(GuardrailBlock)[0]).toMatchObject({
      toolName: "search",
      callId: "c1",
      reason: "looks like a password",
      hook: "guardrail.beforeTool",
    });
    await expect(runBefore([guard], "beforeTool", invocationOf(specOf("search"), { q: "pw" }))).rejects.toThrow();
    expect(session.observer.byType(GuardrailBlock)).toHaveLength(1);
  });
});
