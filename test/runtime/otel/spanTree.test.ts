// The OpenTelemetry exporter against the real SDK: one run through every scope (session, tool
// via act() and via the Executor, IModel and Executor model calls, service hooks, denials,
// budget/guardrail stops), asserted as the spans and events a tracing backend receives.
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  Branch,
  BranchTools,
  BudgetHook,
  Executor,
  GuardrailHook,
  Hook,
  HookPoint,
  IModel,
  IModelClient,
  InvalidValueError,
  Ledger,
  ScriptedEndpoint,
  REDACTION_MASK,
  Session,
  ShortCircuit,
  Tool,
  ToolCallAction,
  createRunContext,
} from "@hooklens/runtime";
import { exportToOpenTelemetry } from "@hooklens/runtime/otel";
import { runExample } from "../../helpers/docExamples.js";
import { completion, useCapturedLogs } from "../middleware/support.js";
import { memoryTracing, only, parentOf, spanTree } from "./support.js";

useCapturedLogs();

function sessionWithTools(): { session: Session; branch: ReturnType<Session["newBranch"]> } {
  const session = new Session();
  void session.hooks; // the bus exists before the branch is included, so act() fires TOOL_PRE/POST/ERROR
  const branch = session.newBranch();
  branch.registerTools([
    new Tool({ name: "lookup", requestOptions: z.object({ key: z.string() }), funcCallable: (args: Record<string, unknown>) => `value of ${String(args["key"])}` }),
    new Tool({ name: "explode", funcCallable: () => { throw new TypeError("exploded"); } }),
    new Tool({ name: "deleteFile", funcCallable: () => "deleted" }),
    new Tool({ name: "rm", funcCallable: () => "removed" }),
  ]);
  return { session, branch };
}

describe("exportToOpenTelemetry: a session's signals as one trace", () => {
  it("builds the session root, invoke_agent, execute_tool and chat spans with GenAI attributes, events and statuses", async () => {
    const { provider, spans } = memoryTracing();
    const { session, branch } = sessionWithTools();
    session.hooks.on(HookPoint.TOOL_PRE, function noDeletes(payload) {
      if (payload.toolName === "deleteFile") throw new Error("deleting is not allowed");
    });
    session.gate((subject) => {
      if (subject instanceof ToolCallAction && subject.function === "rm") throw new Error("rm needs a review");
      return true;
    });
    const exported = exportToOpenTelemetry(session, { tracer: provider.getTracer("test") });

    const model = new IModel({ endpoint: new ScriptedEndpoint({ model: "m-1", script: [completion("hi", { input: 12, output: 3 })] }), signals: branch });
    model.hookRegistry.preEventCreateHook(() => undefined);
    model.hookRegistry.preInvoke(() => undefined);
    await branch.observedRun(async () => {
      await branch.act({ function: "lookup", arguments: { key: "a" } });
      await branch.act({ function: "explode", arguments: {} });
      await expect(branch.act({ function: "deleteFile", arguments: {} })).rejects.toThrow("deleting is not allowed");
      await branch.act({ function: "rm", arguments: {} });
      await model.invoke({ messages: [{ role: "user", content: "hello" }] });
    });
    await exported.end();

    const all = spans();
    expect(spanTree(all)).toEqual([
      "session",
      "  invoke_agent",
      "    execute_tool lookup",
      "    execute_tool explode",
      "    execute_tool deleteFile",
      "    execute_tool rm",
      "    chat m-1",
    ]);
    const root = only(all, "session");
    expect(parentOf(root)).toBeUndefined();
    expect(root.attributes).toMatchObject({ "session.id": session.id, "gen_ai.conversation.id": session.id });
    const run = only(all, "invoke_agent");
    expect(parentOf(run)).toBe(root.spanContext().spanId);
    // The run's messages carried no model response, so it has no usage of its own (the chat span has).
    expect(run.attributes).toMatchObject({ "hooklens.run.turns": 0 });
    expect(Object.keys(run.attributes).filter((key) => key.startsWith("gen_ai.usage."))).toEqual([]);
    expect(new Set(all.map((s) => s.spanContext().traceId)).size).toBe(1);

    const lookup = only(all, "execute_tool lookup");
    expect(parentOf(lookup)).toBe(run.spanContext().spanId);
    expect(lookup.attributes).toMatchObject({ "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "lookup", "hooklens.tool.status": "ok" });
    expect(lookup.attributes["gen_ai.tool.call.id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(lookup.status.code).toBe(SpanStatusCode.UNSET);
    expect(lookup.events.map((e) => e.name)).toEqual(["tool.pre", "tool.post"]);
    expect(lookup.attributes["gen_ai.tool.call.arguments"]).toBeUndefined(); // contents stay out unless asked
    expect(durationMs(lookup)).toBeGreaterThanOrEqual(0);

    const explode = only(all, "execute_tool explode");
    expect(explode.status).toEqual({ code: SpanStatusCode.ERROR, message: "exploded" });
    expect(explode.attributes["error.type"]).toBe("TypeError");
    const exception = explode.events.find((e) => e.name === "exception")!;
    expect(exception.attributes).toMatchObject({ "exception.type": "TypeError", "exception.message": "exploded" });
    expect(explode.events.map((e) => e.name)).toEqual(["tool.pre", "tool.error", "exception"]);

    const blocked = only(all, "execute_tool deleteFile");
    expect(blocked.status).toEqual({ code: SpanStatusCode.ERROR, message: "deleting is not allowed" });
    expect(blocked.attributes).toMatchObject({ "hooklens.denial.reason": "deleting is not allowed", "hooklens.denial.hook": "tool.pre:noDeletes", "hooklens.tool.status": "denied" });
    expect(blocked.events.map((e) => e.name)).toContain("ToolCallBlocked");

    const gated = only(all, "execute_tool rm");
    expect(gated.status.code).toBe(SpanStatusCode.ERROR);
    expect(gated.status.message).toBe("denied by governance gate: the gate threw Error: rm needs a review");
    expect(gated.attributes).toMatchObject({ "hooklens.denial.reason": gated.status.message, "hooklens.denial.kind": "GateDenied", "hooklens.denial.hook": "observer.gate:anonymous" });
    expect(gated.events.map((e) => e.name)).toEqual(["GateDenied"]);

    const chat = only(all, "chat m-1");
    expect(chat.kind).toBe(SpanKind.CLIENT);
    expect(chat.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": "m-1",
      "gen_ai.provider.name": "scripted",
      "gen_ai.usage.input_tokens": 12,
      "gen_ai.usage.output_tokens": 3,
      "gen_ai.response.finish_reasons": ["stop"],
    });
    expect(chat.status.code).toBe(SpanStatusCode.UNSET);
    expect(chat.events.map((e) => e.name)).toEqual(["service.pre_event_create", "service.pre_invocation"]);
    for (const event of chat.events) expect(event.attributes).toMatchObject({ "hooklens.service_hook.status": "completed" });
    expect(ms(chat.events[0]!.time)).toBeGreaterThanOrEqual(ms(chat.startTime));
  });

  it("a run whose messages carry model responses gets their summed usage on its invoke_agent span", async () => {
    const { provider, spans } = memoryTracing();
    const { session, branch } = sessionWithTools();
    const exported = exportToOpenTelemetry(session, { tracer: provider.getTracer("test") });
    await branch.observedRun(async () => {
      for (const usage of [{ prompt_tokens: 7, completion_tokens: 2 }, { input_tokens: 5, output_tokens: 1 }]) {
        branch.addMessage({ role: "assistant", content: "reply", metadata: { modelResponse: { usage } } });
      }
    });
    await exported.end();
    expect(only(spans(), "invoke_agent").attributes).toMatchObject({ "gen_ai.usage.input_tokens": 12, "gen_ai.usage.output_tokens": 3, "hooklens.run.turns": 2 });
  });

  it("takes span times from the signals: children inside their parents, in call order", async () => {
    const { provider, spans } = memoryTracing();
    const { session, branch } = sessionWithTools();
    const exported = exportToOpenTelemetry(session, { tracer: provider.getTracer("test") });
    await branch.act({ function: "lookup", arguments: { key: "a" } });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await branch.act({ function: "lookup", arguments: { key: "b" } });
    await exported.end();
    const all = spans();
    const root = only(all, "session");
    const [first, second] = all.filter((s) => s.name === "execute_tool lookup").sort((a, b) => ms(a.startTime) - ms(b.startTime));
    expect(ms(first!.endTime)).toBeLessThanOrEqual(ms(second!.startTime));
    for (const child of [first!, second!]) {
      expect(ms(child.startTime)).toBeGreaterThanOrEqual(ms(root.startTime));
      expect(ms(child.endTime)).toBeLessThanOrEqual(ms(root.endTime));
    }
    expect(ms(second!.startTime) - ms(first!.startTime)).toBeGreaterThanOrEqual(4);
  });

  it("exports contents only when asked, redacted by the shared rules (key names and text shapes)", async () => {
    const { provider, spans } = memoryTracing();
    const session = new Session();
    const branch = session.newBranch();
    const bearer = "Bearer sk-live-0123456789abcdefghijklmnop";
    branch.registerTools(
      new Tool({ name: "login", funcCallable: (args: Record<string, unknown>) => ({ user: args["user"], sessionToken: "tok-123", note: `sent ${bearer}` }) }),
    );
    const quiet = exportToOpenTelemetry(session, { tracer: provider.getTracer("test") });
    await branch.act({ function: "login", arguments: { user: "ada", password: "hunter2" } });
    await quiet.end();
    const plain = only(spans(), "execute_tool login");
    expect(Object.keys(plain.attributes).filter((key) => key.includes("arguments") || key.includes("result"))).toEqual([]);

    const { provider: provider2, spans: spans2 } = memoryTracing();
    const loud = exportToOpenTelemetry(session, { tracer: provider2.getTracer("test"), captureContent: true });
    await branch.act({ function: "login", arguments: { user: "ada", password: "hunter2" } });
    await loud.end();
    const span = only(spans2(), "execute_tool login");
    expect(JSON.parse(String(span.attributes["gen_ai.tool.call.arguments"]))).toEqual({ user: "ada", password: REDACTION_MASK });
    const result = JSON.parse(String(span.attributes["gen_ai.tool.call.result"])) as Record<string, string>;
    expect(result).toMatchObject({ user: "ada", sessionToken: REDACTION_MASK });
    expect(result["note"]).not.toContain("sk-live-0123456789");
    expect(JSON.stringify(span.attributes)).not.toMatch(/hunter2|tok-123|sk-live/);
  });
});

describe("the middleware Executor", () => {
  it("an Executor tool call is an execute_tool span with the run and thread ids; its act() call nests inside", async () => {
    const { provider, spans } = memoryTracing();
    const { session, branch } = sessionWithTools();
    const exported = exportToOpenTelemetry(session, { tracer: provider.getTracer("test") });
    const executor = new Executor(new BranchTools(branch), { signals: session });
    const ctx = executor.context({ runId: "run-1", threadId: "thread-9" });
    await executor.callTool({ name: "lookup", arguments: { key: "a" }, id: "call-1" }, ctx);
    await exported.end();
    const all = spans();
    expect(spanTree(all)).toEqual(["session", "  execute_tool lookup", "    execute_tool lookup"]);
    const outer = all.find((s) => s.attributes["hooklens.call.source"] === "executor");
    const inner = all.find((s) => s.attributes["hooklens.call.source"] === "act");
    expect(outer!.attributes).toMatchObject({
      "gen_ai.tool.call.id": "call-1",
      "hooklens.call.source": "executor",
      "hooklens.run.id": "run-1",
      "hooklens.thread.id": "thread-9",
      "gen_ai.conversation.id": "thread-9",
    });
    expect(inner!.attributes["hooklens.call.source"]).toBe("act");
    expect(parentOf(inner!)).toBe(outer!.spanContext().spanId);
  });

  it("guardrail blocks, short circuits and budget stops are events on the call's span, the stop a failed status", async () => {
    const { provider, spans } = memoryTracing();
    const executor = new Executor(new BranchTools(sessionWithTools().branch), {
      hooks: [
        new GuardrailHook((_stage, payload) => (JSON.stringify(payload).includes("secret") ? "no secrets" : true)),
        Object.assign(new Hook(), { name: "cache", beforeTool: (inv: { call: { arguments: Record<string, unknown> } }) => (inv.call.arguments["key"] === "cached" ? new ShortCircuit("from cache") : undefined) }),
        new BudgetHook(0.000001),
      ],
      model: new IModelClient(new IModel({ endpoint: new ScriptedEndpoint({ model: "m-2", script: [completion("one", { input: 1000, output: 1000 }), completion("two")] }) })),
      ledger: new Ledger({ prices: { "m-2": { inputPerMillion: 1, outputPerMillion: 1 } } }),
    });
    const exported = exportToOpenTelemetry(executor, { tracer: provider.getTracer("test") });
    const ctx = executor.context({ runId: "run-2" });
    await expect(executor.callTool({ name: "lookup", arguments: { key: "secret" }, id: "g1" }, ctx)).rejects.toThrow();
    await executor.callTool({ name: "lookup", arguments: { key: "cached" }, id: "s1" }, ctx);
    await executor.callLlm({ messages: [{ role: "user", content: "one" }] }, ctx);
    await expect(executor.callLlm({ messages: [{ role: "user", content: "two" }] }, ctx)).rejects.toThrow();
    await exported.end();
    const all = spans();
    const root = only(all, "session");
    expect(root.attributes["session.id"]).toBe(exported.observer.sessionId);

    const guarded = all.find((s) => s.attributes["gen_ai.tool.call.id"] === "g1")!;
    expect(guarded.status.code).toBe(SpanStatusCode.ERROR);
    expect(guarded.attributes).toMatchObject({ "hooklens.denial.kind": "GuardrailBlock", "hooklens.denial.reason": "no secrets", "hooklens.tool.status": "denied" });
    expect(guarded.events.map((e) => e.name)).toEqual(expect.arrayContaining(["GuardrailBlock", "exception", "hooklens.stop"]));

    const skipped = all.find((s) => s.attributes["gen_ai.tool.call.id"] === "s1")!;
    expect(skipped.status.code).toBe(SpanStatusCode.UNSET);
    expect(skipped.attributes).toMatchObject({ "hooklens.tool.status": "skipped", "hooklens.denial.kind": "HookShortCircuit" });
    expect(skipped.events.map((e) => e.name)).toEqual(["HookShortCircuit"]);

    const chats = all.filter((s) => s.name === "chat m-2").sort((a, b) => ms(a.startTime) - ms(b.startTime));
    expect(chats).toHaveLength(2);
    expect(chats[0]!.attributes).toMatchObject({ "hooklens.run.id": "run-2", "gen_ai.usage.input_tokens": 1000, "gen_ai.usage.output_tokens": 1000, "hooklens.call.source": "executor" });
    const stopped = chats[1]!;
    expect(stopped.status.code).toBe(SpanStatusCode.ERROR);
    expect(stopped.attributes["error.type"]).toBe("BudgetExceeded");
    expect(stopped.events.map((e) => e.name)).toEqual(expect.arrayContaining(["exception", "hooklens.stop"]));
  });
});

describe("an Executor model call made through a recorded IModel", () => {
  it("nests the IModel's chat span inside the Executor's; the tokens are on the inner one only, so a backend's sum counts them once", async () => {
    const { provider, spans } = memoryTracing();
    const { session, branch } = sessionWithTools();
    const model = new IModel({ endpoint: new ScriptedEndpoint({ model: "m-7", script: [completion("hi", { input: 30, output: 4 })] }), signals: branch });
    const executor = new Executor(new BranchTools(branch), { model: new IModelClient(model), signals: branch });
    const exported = exportToOpenTelemetry(session, { tracer: provider.getTracer("test") });
    await executor.callLlm({ messages: [{ role: "user", content: "hello" }] }, executor.context({ runId: "run-7" }));
    await exported.end();
    const all = spans();
    expect(spanTree(all)).toEqual(["session", "  chat m-7", "    chat m-7"]);
    const outer = all.find((s) => s.attributes["hooklens.call.source"] === "executor")!;
    const inner = all.find((s) => s.attributes["hooklens.call.source"] === "imodel")!;
    expect(parentOf(inner)).toBe(outer.spanContext().spanId);
    expect(inner.attributes).toMatchObject({ "gen_ai.usage.input_tokens": 30, "gen_ai.usage.output_tokens": 4 });
    expect(outer.attributes).toMatchObject({ "hooklens.run.id": "run-7", "gen_ai.response.finish_reasons": ["stop"] });
    const tokens = (key: string) => all.reduce((sum, s) => sum + Number(s.attributes[key] ?? 0), 0);
    expect([tokens("gen_ai.usage.input_tokens"), tokens("gen_ai.usage.output_tokens")]).toEqual([30, 4]);
  });
});

describe("denials of an Executor model call", () => {
  it("a guardrail block or a ShortCircuit of a model call is an event on its chat span, which carries the reason", async () => {
    const { provider, spans } = memoryTracing();
    const executor = new Executor(new BranchTools(sessionWithTools().branch), {
      hooks: [
        new GuardrailHook((_stage, request) => !JSON.stringify(request).includes("forbidden") || "no forbidden prompts", { on: ["llm_request"] }),
        Object.assign(new Hook(), { name: "replay", beforeLlm: (inv: { request: unknown }) => (JSON.stringify(inv.request).includes("again") ? new ShortCircuit({ content: "from the replay" }) : undefined) }),
      ],
      model: new IModelClient(new IModel({ endpoint: new ScriptedEndpoint({ model: "m-5", script: ["fine"] }) })),
    });
    const exported = exportToOpenTelemetry(executor, { tracer: provider.getTracer("test") });
    const ctx = executor.context({ runId: "run-5" });
    await expect(executor.callLlm({ messages: [{ role: "user", content: "forbidden" }] }, ctx)).rejects.toThrow("no forbidden prompts");
    await executor.callLlm({ messages: [{ role: "user", content: "again" }] }, ctx);
    await exported.end();
    const all = spans();
    // Both denials sit on their calls' spans: the session root has no event of its own.
    expect(spanTree(all)).toEqual(["session", "  chat m-5", "  chat m-5"]);
    expect(only(all, "session").events).toEqual([]);
    const [blocked, replayed] = all.filter((s) => s.name === "chat m-5").sort((a, b) => ms(a.startTime) - ms(b.startTime));

    expect(blocked!.status).toEqual({ code: SpanStatusCode.ERROR, message: "no forbidden prompts" });
    expect(blocked!.attributes).toMatchObject({ "hooklens.denial.kind": "GuardrailBlock", "hooklens.denial.reason": "no forbidden prompts", "hooklens.denial.hook": "guardrail.beforeLlm", "error.type": "GuardrailBlocked" });
    expect(blocked!.events.map((e) => e.name)).toEqual(["GuardrailBlock", "exception", "hooklens.stop"]);

    expect(replayed!.status.code).toBe(SpanStatusCode.UNSET);
    expect(replayed!.attributes).toMatchObject({ "hooklens.denial.kind": "HookShortCircuit", "hooklens.denial.hook": "replay.beforeLlm" });
    expect(replayed!.events.map((e) => e.name)).toEqual(["HookShortCircuit"]);
  });
});

describe("a flow node a middleware hook skipped", () => {
  it("is an event on the session's span that names the flow and node", async () => {
    const { provider, spans } = memoryTracing();
    const executor = new Executor(new BranchTools(sessionWithTools().branch), {
      hooks: [Object.assign(new Hook(), { name: "replay", beforeNode: () => new ShortCircuit({ topic: "billing" }) })],
    });
    const exported = exportToOpenTelemetry(executor, { tracer: provider.getTracer("test") });
    expect(await executor.runNode("support", { name: "classify", run: () => ({ topic: "?" }) }, {}, executor.context({ runId: "run-6" }))).toEqual({ topic: "billing" });
    await exported.end();
    const [event] = only(spans(), "session").events;
    expect(event!.name).toBe("HookShortCircuit");
    expect(event!.attributes).toMatchObject({ "hooklens.denial.kind": "HookShortCircuit", "hooklens.denial.hook": "replay.beforeNode", "hooklens.flow.name": "support", "hooklens.flow.node": "classify" });
  });
});

describe("run limits", () => {
  it("the tool or model call a run's limit refused is a failed span with the stop, so the trace shows why the run ended", async () => {
    const { provider, spans } = memoryTracing();
    const executor = new Executor(new BranchTools(sessionWithTools().branch), {
      model: new IModelClient(new IModel({ endpoint: new ScriptedEndpoint({ model: "m-6", script: ["fine"] }) })),
      limits: { toolCalls: 1, llmCalls: 1 },
    });
    const exported = exportToOpenTelemetry(executor, { tracer: provider.getTracer("test") });
    const ctx = executor.context({ runId: "run-6" });
    await executor.callTool({ name: "lookup", arguments: { key: "a" }, id: "first" }, ctx);
    await expect(executor.callTool({ name: "lookup", arguments: { key: "b" }, id: "second" }, ctx)).rejects.toThrow("run run-6 reached its limit of 1 tool calls");
    await executor.callLlm({ messages: [{ role: "user", content: "one" }] }, ctx);
    await expect(executor.callLlm({ messages: [{ role: "user", content: "two" }] }, ctx)).rejects.toThrow(/limit of 1 model calls/);
    await exported.end();
    const all = spans();
    const refusedTool = all.find((s) => s.attributes["gen_ai.tool.call.id"] === "second")!;
    expect(refusedTool.status).toEqual({ code: SpanStatusCode.ERROR, message: "run run-6 reached its limit of 1 tool calls" });
    expect(refusedTool.attributes).toMatchObject({ "gen_ai.tool.name": "lookup", "hooklens.tool.status": "denied", "hooklens.run.id": "run-6", "error.type": "RunLimitExceeded" });
    expect(refusedTool.events.map((e) => e.name)).toEqual(["exception", "hooklens.stop"]);
    const chats = all.filter((s) => s.name === "chat m-6" && s.attributes["hooklens.call.source"] === "executor").sort((a, b) => ms(a.startTime) - ms(b.startTime));
    expect(chats.map((s) => s.status.code)).toEqual([SpanStatusCode.UNSET, SpanStatusCode.ERROR]);
    expect(chats[1]!.attributes["error.type"]).toBe("RunLimitExceeded");
    expect(chats[1]!.events.find((e) => e.name === "hooklens.stop")!.attributes).toMatchObject({ "hooklens.stop.kind": "RunLimitExceeded" });
  });
});

describe("a bare IModel", () => {
  it("gets an observer of its own; a stream's chunk batches become events when asked", async () => {
    const { provider, spans } = memoryTracing();
    const model = new IModel({ endpoint: new ScriptedEndpoint({ model: "m-3", script: [{ chunks: Array.from({ length: 40 }, (_, i) => ({ choices: [{ delta: { content: `t${i}` }, finish_reason: i === 39 ? "length" : null }] })) }] }) });
    const exported = exportToOpenTelemetry(model, { tracer: provider.getTracer("test"), streamChunkEvents: true });
    expect(model.signals).toBe(exported.observer);
    const received: unknown[] = [];
    for await (const chunk of model.stream({ messages: [{ role: "user", content: "go" }] })) received.push(chunk);
    await exported.end();
    const all = spans();
    expect(spanTree(all)).toEqual(["session", "  chat m-3"]);
    const chat = only(all, "chat m-3");
    expect(chat.attributes).toMatchObject({ "hooklens.stream": true, "hooklens.stream.chunks": 40, "gen_ai.response.finish_reasons": ["length"] });
    expect(chat.events.filter((e) => e.name === "gen_ai.stream.chunks").map((e) => e.attributes?.["hooklens.stream.chunks"])).toEqual([32, 8]);
    expect(only(all, "session").attributes["session.id"]).toBe(model.id);
  });
});

function ms(time: readonly [number, number]): number {
  return time[0] * 1000 + time[1] / 1e6;
}

function durationMs(span: { duration: readonly [number, number] }): number {
  return ms(span.duration);
}

describe("run events and the program's end", () => {
  it("a budget warning is an event on the run's open call, with its figures, also for a context the executor bound", async () => {
    const { provider, spans } = memoryTracing();
    const executor = new Executor(new BranchTools(sessionWithTools().branch), {
      hooks: [new BudgetHook(0.000001, { onExceed: "warn" })],
      model: new IModelClient(new IModel({ endpoint: new ScriptedEndpoint({ model: "m-4", script: [completion("one", { input: 1000, output: 1000 })] }) })),
      ledger: new Ledger({ prices: { "m-4": { inputPerMillion: 1, outputPerMillion: 1 } } }),
    });
    const exported = exportToOpenTelemetry(executor, { tracer: provider.getTracer("test") });
    // A context made elsewhere, with no recorder: the executor binds its own.
    await executor.callLlm({ messages: [{ role: "user", content: "one" }] }, createRunContext({ runId: "run-w" }));
    await exported.end();
    const chat = only(spans(), "chat m-4");
    const warning = chat.events.find((e) => e.name === "budget.warning")!;
    expect(warning.attributes).toMatchObject({ "hooklens.run.id": "run-w", "hooklens.run_event.scope": "run" });
    expect(warning.attributes?.["hooklens.run_event.spentUsd"]).toBeGreaterThan(0);
  });

  it("a program that never calls end() still gets its root span ended and exported when it runs out of work", async () => {
    const { stdout, stderr, code } = await runExample("test/runtime/otel/fixtures/noEndCall.mts");
    expect(code, stderr).toBe(0);
    expect(stdout.trim()).toBe("exported at exit: execute_tool add, session");
  });
});

describe("exportToOpenTelemetry's inputs", () => {
  it.each([
    ["a plain object target", () => exportToOpenTelemetry({} as never), /target must be a Session, SessionObserver, Branch, IModel or Executor, got Object/],
    ["null options", () => exportToOpenTelemetry(new Session(), null as never), /options must be an object, got null/],
    ["a tracer without startSpan", () => exportToOpenTelemetry(new Session(), { tracer: {} as never }), /options.tracer must be an OpenTelemetry Tracer/],
    ["a branch outside any session", () => exportToOpenTelemetry(new Branch()), /belongs to no Session/],
  ])("refuses %s with an InvalidValueError naming the API", (_case, call, message) => {
    expect(call).toThrow(InvalidValueError);
    expect(call).toThrow(message);
  });
});
