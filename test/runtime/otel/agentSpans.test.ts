// The invoke_agent span of a branch's observed run is named after the agent it runs, as the GenAI
// semantic conventions name it (`invoke_agent {gen_ai.agent.name}`), from what the runtime knows:
// a branch's `branch.create` agentName (and agentId), the branch's own name (createAgent names a
// branch after its AgentSpec), the session's `session.start` agentName. Nothing known: `invoke_agent`.
import { describe, expect, it } from "vitest";
import { AgentSpec, HookPoint, InMemorySignalStore, RunStart, Session, createAgent } from "@hooklens/runtime";
import { exportToOpenTelemetry } from "@hooklens/runtime/otel";
import { useCapturedLogs } from "../middleware/support.js";
import { memoryTracing, only, spanTree } from "./support.js";

useCapturedLogs();

function traced(session: Session) {
  const { provider, spans } = memoryTracing();
  const exported = exportToOpenTelemetry(session, { tracer: provider.getTracer("test") });
  return { spans, end: () => exported.end() };
}

describe("the invoke_agent span, named after its agent", () => {
  it("a branch createAgent made from a named AgentSpec: its RunStart names the branch, the span the agent (no id)", async () => {
    const session = new Session();
    const store = new InMemorySignalStore();
    session.observer.bindDbPersistence(session.id, store);
    const branch = await createAgent(new AgentSpec({ name: "researcher" }));
    session.includeBranches(branch);
    const trace = traced(session);
    await branch.observedRun(() => "done");
    await trace.end();
    expect(session.observer.byType(RunStart).map((s) => s.metadata)).toEqual([{ branchName: "researcher", branchId: branch.id }]);
    // Persisted (and streamed: the same encoded payload) with the name, so a recording says it too.
    await session.observer.flush();
    expect(store.records.filter((r) => r.kind === "RunStart").map((r) => r.payload["metadata"])).toEqual([{ branchName: "researcher", branchId: branch.id }]);
    expect(spanTree(trace.spans())).toEqual(["session", "  invoke_agent researcher"]);
    const run = only(trace.spans(), "invoke_agent researcher");
    expect(run.attributes).toMatchObject({ "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "researcher", "hooklens.branch.id": branch.id });
    expect(run.attributes["gen_ai.agent.id"]).toBeUndefined();
  });

  it("branch.create's agentName and agentId name that branch's run; session.start's agentName a run nothing else names", async () => {
    const session = new Session();
    const planner = session.newBranch({ name: "scratch" });
    const other = session.newBranch();
    const trace = traced(session);
    await session.hooks.emit(HookPoint.SESSION_START, { sessionId: session.id, agentName: "support" });
    await session.hooks.emit(HookPoint.BRANCH_CREATE, { branchId: planner.id, agentName: "planner", agentId: "agent-7" });
    await planner.observedRun(() => "planned");
    await other.observedRun(() => "answered");
    await trace.end();
    const all = trace.spans();
    expect(spanTree(all)).toEqual(["session", "  invoke_agent planner", "  invoke_agent support"]);
    expect(only(all, "invoke_agent planner").attributes).toMatchObject({ "gen_ai.agent.name": "planner", "gen_ai.agent.id": "agent-7", "hooklens.branch.id": planner.id });
    expect(only(all, "invoke_agent support").attributes).toMatchObject({ "gen_ai.agent.name": "support", "hooklens.branch.id": other.id });
    expect(only(all, "invoke_agent support").attributes["gen_ai.agent.id"]).toBeUndefined();
  });

  it("keeps invoke_agent alone when nothing names an agent, and names an open run once a session.start inside it does", async () => {
    const session = new Session();
    const branch = session.newBranch();
    const trace = traced(session);
    await branch.observedRun(() => "unnamed");
    await branch.observedRun(() => session.hooks.emit(HookPoint.SESSION_START, { sessionId: session.id, agentName: "late", agentId: "a-1" }));
    await trace.end();
    const all = trace.spans();
    expect(spanTree(all)).toEqual(["session", "  invoke_agent", "  invoke_agent late"]);
    expect(Object.keys(only(all, "invoke_agent").attributes).filter((key) => key.startsWith("gen_ai.agent."))).toEqual([]);
    expect(only(all, "invoke_agent late").attributes).toMatchObject({ "gen_ai.agent.name": "late", "gen_ai.agent.id": "a-1" });
  });
});
