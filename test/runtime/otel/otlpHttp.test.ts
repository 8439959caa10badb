// The export end to end over the wire: the real OTLP/HTTP exporter of the OpenTelemetry SDK,
// registered as the global provider (so exportToOpenTelemetry runs with no tracer given), sends
// to an OTLP receiver this test runs on 127.0.0.1; the assertions read what arrived.
import { trace } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { BasicTracerProvider, BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it } from "vitest";
import { IModel, ScriptedEndpoint, Session, Tool } from "@hooklens/runtime";
import { exportToOpenTelemetry } from "@hooklens/runtime/otel";
import { useCapturedLogs } from "../middleware/support.js";
import { attribute as attributeOf, startReceiver, type OtlpSpan } from "./otlpReceiver.js";

useCapturedLogs();

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function attribute(span: OtlpSpan, key: string): string | number | boolean | undefined {
  return attributeOf(span.attributes, key);
}

describe("OTLP/HTTP to a local receiver", () => {
  it("the global provider's OTLP exporter delivers the session's spans, tree and GenAI attributes intact", async () => {
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    const provider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: receiver.url }))] });
    trace.setGlobalTracerProvider(provider);
    cleanups.push(async () => {
      trace.disable();
      await provider.shutdown();
    });

    const session = new Session();
    const branch = session.newBranch();
    branch.registerTools(new Tool({ name: "add", funcCallable: ({ a, b }: { a: number; b: number }) => a + b }));
    const model = new IModel({ endpoint: new ScriptedEndpoint({ model: "wire-model", script: ["Four."] }), signals: branch });
    const exported = exportToOpenTelemetry(session); // no tracer: the global provider
    await branch.act({ function: "add", arguments: { a: 2, b: 2 } });
    await model.invoke({ messages: [{ role: "user", content: "2+2?" }] });
    await exported.end(); // ends the root span and force-flushes the global provider

    expect(receiver.paths.every((p) => p === "POST /v1/traces")).toBe(true);
    expect(receiver.contentTypes.every((t) => t.startsWith("application/json"))).toBe(true);
    const scopes = receiver.requests.flatMap((r) => r.resourceSpans.flatMap((rs) => rs.scopeSpans));
    expect(new Set(scopes.map((s) => s.scope.name))).toEqual(new Set(["@hooklens/runtime"]));
    const spans = scopes.flatMap((s) => s.spans);
    expect(spans.map((s) => s.name).sort()).toEqual(["chat wire-model", "execute_tool add", "session"]);

    const root = spans.find((s) => s.name === "session")!;
    expect(root.parentSpanId ?? "").toBe("");
    expect(attribute(root, "session.id")).toBe(session.id);
    const tool = spans.find((s) => s.name === "execute_tool add")!;
    const chat = spans.find((s) => s.name === "chat wire-model")!;
    for (const child of [tool, chat]) {
      expect(child.traceId).toBe(root.traceId);
      expect(child.parentSpanId).toBe(root.spanId);
      expect(BigInt(child.startTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(root.startTimeUnixNano));
      expect(BigInt(child.endTimeUnixNano)).toBeLessThanOrEqual(BigInt(root.endTimeUnixNano));
    }
    expect(attribute(tool, "gen_ai.operation.name")).toBe("execute_tool");
    expect(attribute(tool, "gen_ai.tool.name")).toBe("add");
    expect(attribute(tool, "gen_ai.tool.call.id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(attribute(chat, "gen_ai.operation.name")).toBe("chat");
    expect(attribute(chat, "gen_ai.request.model")).toBe("wire-model");
    expect(typeof attribute(chat, "gen_ai.usage.input_tokens")).toBe("number");
    expect(chat.kind).toBe(3); // SPAN_KIND_CLIENT in OTLP's numbering
  });

  it("a failed tool call arrives with status ERROR and its exception event", async () => {
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    const provider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: receiver.url }))] });
    cleanups.push(() => provider.shutdown());

    const session = new Session();
    void session.hooks;
    const branch = session.newBranch();
    branch.registerTools(new Tool({ name: "fail", funcCallable: () => { throw new RangeError("out of range"); } }));
    const exported = exportToOpenTelemetry(session, { tracer: provider.getTracer("wire") });
    await branch.act({ function: "fail", arguments: {} });
    await exported.end();
    await provider.forceFlush();

    const spans = receiver.spans();
    const failed = spans.find((s) => s.name === "execute_tool fail")!;
    expect(failed.status).toEqual({ code: 2, message: "out of range" }); // STATUS_CODE_ERROR
    expect(failed.events?.map((e) => e.name)).toEqual(["tool.pre", "tool.error", "exception"]);
    expect(attribute(failed, "error.type")).toBe("RangeError");
  });
});
