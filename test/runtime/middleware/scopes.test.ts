import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  BranchTools,
  Executor,
  Hook,
  HookPoint,
  IModel,
  IModelClient,
  InMemorySignalStore,
  LoggingHook,
  ModelCallStarted,
  ScriptedEndpoint,
  Session,
  ShortCircuit,
  Tool,
  ToolCallAction,
  type HookPhases,
} from "@hooklens/runtime";
import { completion, useCapturedLogs } from "./support.js";

useCapturedLogs();

function tracer(trail: string[]): Hook {
  const phases: HookPhases = {
    beforeTool: () => void trail.push("middleware beforeTool"),
    afterTool: () => void trail.push("middleware afterTool"),
    onToolError: () => void trail.push("middleware onToolError"),
    beforeLlm: () => void trail.push("middleware beforeLlm"),
    afterLlm: () => void trail.push("middleware afterLlm"),
    onLlmError: () => void trail.push("middleware onLlmError"),
    onLlmEnd: () => void trail.push("middleware onLlmEnd"),
  };
  return Object.assign(new Hook(), { name: "tracer" }, phases);
}

/** A session-owned branch (its HookBus exists first, so the branch gets it) with a traced tool. */
function tracedBranch(trail: string[], body: (args: Record<string, unknown>) => unknown) {
  const session = new Session();
  for (const point of [HookPoint.TOOL_PRE, HookPoint.TOOL_POST, HookPoint.TOOL_ERROR]) {
    session.hooks.on(point, () => void trail.push(`HookBus ${point}`));
  }
  const branch = session.newBranch();
  const tools = new BranchTools(branch).register(
    new Tool({
      name: "lookup",
      requestOptions: z.object({ key: z.string() }),
      funcCallable: (args: Record<string, unknown>) => (trail.push("tool body"), body(args)),
      preprocessor: (args: Record<string, unknown>) => (trail.push("Tool preprocessor"), args),
      postprocessor: (response: unknown) => (trail.push("Tool postprocessor"), response),
    }),
  );
  return { session, branch, tools };
}

describe("middleware around the Tool scope (act)", () => {
  it("wraps authorize, HookBus TOOL_PRE/TOOL_POST and the Tool's processors from the outside", async () => {
    const trail: string[] = [];
    const { session, tools } = tracedBranch(trail, (args) => `value of ${String(args["key"])}`);
    session.gate((action) => (action instanceof ToolCallAction && trail.push("governance authorize"), true));
    const executor = new Executor(tools, { hooks: [tracer(trail)] });
    const result = await executor.callTool({ name: "lookup", arguments: { key: "a" } }, executor.context());
    expect(result.value).toBe("value of a");
    expect(trail).toEqual([
      "middleware beforeTool",
      "governance authorize",
      `HookBus ${HookPoint.TOOL_PRE}`,
      "Tool preprocessor",
      "tool body",
      "Tool postprocessor",
      `HookBus ${HookPoint.TOOL_POST}`,
      "middleware afterTool",
    ]);
  });

  it("a tool body error fires TOOL_ERROR inside, then onToolError outside, with the same error", async () => {
    const trail: string[] = [];
    const boom = new Error("body failed");
    const { tools } = tracedBranch(trail, () => {
      throw boom;
    });
    const executor = new Executor(tools, { hooks: [tracer(trail)] });
    await expect(executor.callTool({ name: "lookup", arguments: { key: "a" } }, executor.context())).rejects.toBe(boom);
    expect(trail.slice(-2)).toEqual([`HookBus ${HookPoint.TOOL_ERROR}`, "middleware onToolError"]);
  });

  it("a governance denial is a failed result (GateDenied), not an error, and skips the tool", async () => {
    const trail: string[] = [];
    const { session, tools } = tracedBranch(trail, () => "never");
    session.gate(() => false);
    const executor = new Executor(tools, { hooks: [tracer(trail)] });
    const result = await executor.callTool({ name: "lookup", arguments: { key: "a" } }, executor.context());
    expect(result).toMatchObject({
      status: "error",
      errorKind: "GateDenied",
      value: { error: "denied by governance gate", function: "lookup" },
    });
    expect(trail).toEqual(["middleware beforeTool", "middleware afterTool"]);
  });

  it("a middleware ShortCircuit means the Tool scope never sees the call", async () => {
    const trail: string[] = [];
    const { branch, tools } = tracedBranch(trail, () => "never");
    const executor = new Executor(tools, { hooks: [Object.assign(new Hook(), { beforeTool: () => new ShortCircuit("cached") })] });
    expect((await executor.callTool({ name: "lookup", arguments: { key: "a" } }, executor.context())).value).toBe("cached");
    expect(trail).toEqual([]);
    expect(branch.messages).toEqual([]);
  });

  it("the call is recorded on the branch as action request and response messages", async () => {
    const { branch, tools } = tracedBranch([], () => 42);
    const executor = new Executor(tools);
    await executor.callTool({ name: "lookup", arguments: { key: "a" } }, executor.context());
    expect(branch.messages.map((m) => m.role)).toEqual(["action_request", "action_response"]);
  });

  it("tools registered on the branch directly are found with default metadata", async () => {
    const { branch, tools } = tracedBranch([], () => 1);
    branch.registerTools(new Tool({ name: "other", funcCallable: () => "direct" }));
    expect(tools.spec("other")).toEqual({ name: "other", kind: "other", confirm: false, cacheable: false, schema: null });
    expect(tools.spec("lookup")?.schema).not.toBeNull();
    expect(tools.spec("missing")).toBeUndefined();
  });
});

describe("middleware around the service scope (IModel)", () => {
  function tracedModel(trail: string[], turns: ConstructorParameters<typeof ScriptedEndpoint>[0] = {}) {
    const imodel = new IModel({ endpoint: new ScriptedEndpoint(turns) });
    imodel.hookRegistry.preInvoke(() => void trail.push("IModel pre_invocation"));
    imodel.hookRegistry.postInvoke(() => void trail.push("IModel post_invocation"));
    return new IModelClient(imodel);
  }

  it("wraps the IModel's pre- and post-invocation hooks from the outside", async () => {
    const trail: string[] = [];
    const executor = new Executor(new BranchTools(new Session().newBranch()), {
      hooks: [tracer(trail)],
      model: tracedModel(trail, { script: [completion("hi")] }),
    });
    const response = await executor.callLlm({ messages: [{ role: "user", content: "hello" }] }, executor.context());
    expect(response).toEqual({ content: "hi", finishReason: "stop", usage: { inputTokens: 10, outputTokens: 5 } });
    expect(trail).toEqual([
      "middleware beforeLlm",
      "IModel pre_invocation",
      "IModel post_invocation",
      "middleware afterLlm",
      "middleware onLlmEnd",
    ]);
  });

  it("a failed provider call throws its error to onLlmError", async () => {
    const trail: string[] = [];
    const down = new Error("provider down");
    const executor = new Executor(new BranchTools(new Session().newBranch()), {
      hooks: [tracer(trail)],
      model: tracedModel(trail, { script: [{ error: down }] }),
    });
    await expect(executor.callLlm({ messages: [] }, executor.context())).rejects.toBe(down);
    expect(trail).toContain("middleware onLlmError");
  });

  it("sends the messages, model and limits to the endpoint", async () => {
    const endpoint = new ScriptedEndpoint({ model: "m-1" });
    const executor = new Executor(new BranchTools(new Session().newBranch()), {
      model: new IModelClient(new IModel({ endpoint })),
      hooks: [new LoggingHook()],
    });
    const response = await executor.callLlm(
      { messages: [{ role: "user", content: "ping" }], maxTokens: 7, temperature: 0 },
      executor.context(),
    );
    expect(endpoint.lastPayload).toEqual({ model: "m-1", messages: [{ role: "user", content: "ping" }], max_tokens: 7, temperature: 0 });
    expect(response.content).toBe("Echo: ping");
  });

  it("a recorded IModel's call names the Executor's model call it runs inside (parentCallId), in the signal and in what is persisted", async () => {
    const session = new Session();
    const store = new InMemorySignalStore();
    session.observer.bindDbPersistence(session.id, store);
    const branch = session.newBranch();
    const model = new IModel({ endpoint: new ScriptedEndpoint({ model: "m-1", script: [completion("hi")] }), signals: branch });
    const executor = new Executor(new BranchTools(branch), { model: new IModelClient(model), signals: branch });
    await executor.callLlm({ messages: [{ role: "user", content: "hello" }] }, executor.context({ runId: "run-1" }));
    await session.observer.flush();
    const [outer, inner] = session.observer.byType(ModelCallStarted);
    expect([outer!.source, inner!.source]).toEqual(["executor", "imodel"]);
    expect(outer!.parentCallId).toBeNull();
    expect(inner!.parentCallId).toBe(outer!.callId);
    // The stores and the live stream get the same encoded payload: the link travels with it.
    const rows = store.records.filter((r) => r.kind === "ModelCallStarted");
    expect(rows.map((r) => [r.payload["callId"], r.payload["parentCallId"] ?? null])).toEqual([
      [outer!.callId, null],
      [inner!.callId, outer!.callId],
    ]);
  });
});
