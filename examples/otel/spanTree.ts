/**
 * One run through every scope, exported to OpenTelemetry and printed as the span tree a tracing
 * backend shows. The SDK's in-memory exporter stands in for the backend: no server needed.
 */
import assert from "node:assert/strict";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { z } from "zod";
import { BranchTools, Executor, GuardrailHook, HookPoint, IModel, IModelClient, ScriptedEndpoint, Session, Tool } from "@hooklens/runtime";
import { exportToOpenTelemetry } from "@hooklens/runtime/otel";

const memory = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(memory)] });

const session = new Session();
void session.hooks; // the bus exists before the branch joins, so act() fires tool.pre/tool.post
session.hooks.on(HookPoint.TOOL_PRE, function noDeletes(payload) {
  if (payload.toolName === "deleteFile") throw new Error("deleting is not allowed");
});
const branch = session.newBranch({ name: "helpdesk" }); // the agent: its runs are `invoke_agent helpdesk` spans
const tools = new BranchTools(branch)
  .register(new Tool({ name: "lookup", requestOptions: z.object({ key: z.string() }), funcCallable: ({ key }: { key: string }) => `value of ${key}` }))
  .register(new Tool({ name: "deleteFile", funcCallable: () => "deleted" }));
const model = new IModel({ endpoint: new ScriptedEndpoint({ model: "demo-model", script: ["Looked it up.", "Done."] }), signals: branch });
const executor = new Executor(tools, {
  model: new IModelClient(model),
  hooks: [new GuardrailHook((_stage, args) => !JSON.stringify(args).includes("password") || "no passwords")],
  signals: branch,
});

// Spans go to this tracer; without `tracer` they go to the global provider your SDK registered.
const exported = exportToOpenTelemetry(session, { tracer: provider.getTracer("example") });
await branch.observedRun(async () => {
  const ctx = executor.context({ runId: "run-1", threadId: "support-42" });
  await executor.callLlm({ messages: [{ role: "user", content: "find a" }] }, ctx);
  await executor.callTool({ name: "lookup", arguments: { key: "a" } }, ctx);
  await executor.callTool({ name: "lookup", arguments: { key: "password" } }, ctx).catch(() => undefined);
  await branch.act({ function: "deleteFile", arguments: {} }).catch(() => undefined);
});
await exported.end(); // ends the session's root span; a program that just exits gets the same

const spans = memory.getFinishedSpans();
const children = (parent: ReadableSpan | null) => spans.filter((s) => (s.parentSpanContext?.spanId ?? null) === (parent?.spanContext().spanId ?? null));
const lines: string[] = [];
const print = (span: ReadableSpan, depth: number): void => {
  const status = span.status.code === 2 ? `  ERROR: ${span.status.message}` : "";
  const events = span.events.length > 0 ? `  [${span.events.map((e) => e.name).join(", ")}]` : "";
  lines.push(`${"  ".repeat(depth)}${span.name}${status}${events}`);
  for (const child of children(span)) print(child, depth + 1);
};
for (const root of children(null)) print(root, 0);
console.log(lines.join("\n"));

assert.equal(children(null).length, 1, "one root span per session");
assert.ok(lines.some((line) => line.includes("invoke_agent helpdesk")));
assert.ok(lines.some((line) => line.includes("chat demo-model")));
assert.ok(lines.some((line) => line.includes("execute_tool deleteFile  ERROR: deleting is not allowed")));
assert.ok(lines.some((line) => line.includes("ERROR: no passwords")));
