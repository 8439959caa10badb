// Stream handlers are service-scope hooks that run once per chunk: each run is its own child span
// of the streamed call's chat span, with the handler's chunk type, its status, and the error it
// raised recorded as an exception.
import { SpanStatusCode } from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import { IModel, ModelStreamChunks, ScriptedEndpoint, Session } from "@hooklens/runtime";
import { exportToOpenTelemetry } from "@hooklens/runtime/otel";
import { useCapturedLogs } from "../middleware/support.js";
import { memoryTracing, only, parentOf, spanTree } from "./support.js";

useCapturedLogs();

/** 40 chunks, two of them strings; chunk 7 is the one the Object handler refuses. */
function script(): { chunks: unknown[] } {
  const chunks: unknown[] = Array.from({ length: 40 }, (_, i) => ({ choices: [{ delta: { content: `t${i}` }, finish_reason: i === 39 ? "stop" : null }] }));
  chunks.splice(10, 0, "plain text");
  chunks.splice(20, 0, "more text");
  return { chunks };
}

function contentOf(chunk: unknown): string | undefined {
  return (chunk as { choices?: Array<{ delta?: { content?: string } }> }).choices?.[0]?.delta?.content;
}

function ms(time: readonly [number, number]): number {
  return time[0] * 1000 + time[1] / 1e6;
}

describe("stream handler runs as spans", () => {
  it("every handler run is a child span of its chat span: chunk type, status, and the error a failing run raised", async () => {
    const { provider, spans } = memoryTracing();
    const session = new Session();
    const branch = session.newBranch();
    const model = new IModel({
      endpoint: new ScriptedEndpoint({ model: "m-s", script: [script()] }),
      signals: branch,
      hookRegistry: {
        streamHandlers: {
          Object: (_event: null, _type: string, chunk: unknown) => {
            if (contentOf(chunk) === "t7") throw new RangeError("chunk 7 is bad");
            return null;
          },
          String: (_event: null, _type: string, chunk: unknown) => String(chunk).toUpperCase(),
        },
      },
    });
    const exported = exportToOpenTelemetry(session, { tracer: provider.getTracer("test") });
    const received: unknown[] = [];
    for await (const chunk of model.stream({ messages: [{ role: "user", content: "go" }] })) received.push(chunk);
    await exported.end();

    expect(received).toHaveLength(42);
    expect(received).toContain("PLAIN TEXT"); // the handlers really ran
    const all = spans();
    const chat = only(all, "chat m-s");
    const handlers = all.filter((s) => s.name.startsWith("stream_handler "));
    expect(handlers).toHaveLength(42);
    expect(handlers.filter((s) => s.name === "stream_handler String")).toHaveLength(2);
    expect(handlers.filter((s) => s.name === "stream_handler Object")).toHaveLength(40);
    for (const span of handlers) {
      expect(parentOf(span)).toBe(chat.spanContext().spanId);
      expect(span.spanContext().traceId).toBe(chat.spanContext().traceId);
      expect(ms(span.startTime)).toBeGreaterThanOrEqual(ms(chat.startTime));
      expect(ms(span.endTime)).toBeLessThanOrEqual(ms(chat.endTime));
      expect(ms(span.endTime)).toBeGreaterThanOrEqual(ms(span.startTime));
    }
    const byStart = [...handlers].sort((a, b) => ms(a.startTime) - ms(b.startTime));
    expect(byStart.map((s) => s.attributes["hooklens.stream_handler.chunk_type"]).filter((t) => t === "String")).toHaveLength(2);

    const failed = handlers.filter((s) => s.status.code === SpanStatusCode.ERROR);
    expect(failed).toHaveLength(1);
    expect(failed[0]!.name).toBe("stream_handler Object");
    expect(failed[0]!.status.message).toBe("chunk 7 is bad");
    expect(failed[0]!.attributes).toMatchObject({ "error.type": "RangeError", "hooklens.service_hook.status": "error", "hooklens.service_hook.type": "stream_handler" });
    expect(failed[0]!.events.map((e) => [e.name, e.attributes?.["exception.message"]])).toEqual([["exception", "chunk 7 is bad"]]);
    for (const span of handlers.filter((s) => s !== failed[0])) {
      expect(span.status.code).toBe(SpanStatusCode.UNSET);
      expect(span.attributes["hooklens.service_hook.status"]).toBe("ok");
    }
    // The handler failure kept the chunk (no exit policy): the call itself worked.
    expect(chat.status.code).toBe(SpanStatusCode.UNSET);
    expect(chat.attributes["hooklens.stream.chunks"]).toBe(42);

    // The runs travel in the chunk batch signals: 42 runs in 2 signals, not 42 signals.
    const batches = session.observer.byType(ModelStreamChunks);
    expect(batches.map((b) => b.handlerRuns?.length ?? 0)).toEqual([32, 10]);
  });

  it("under the exit policy a failing handler ends the stream: its span and the chat span are both ERROR", async () => {
    const { provider, spans } = memoryTracing();
    const session = new Session();
    const model = new IModel({
      endpoint: new ScriptedEndpoint({ model: "m-x", script: [script()] }),
      signals: session,
      exitHook: true,
      hookRegistry: { streamHandlers: { Object: (_e: null, _t: string, chunk: unknown) => { if (contentOf(chunk) === "t3") throw new Error("stop here"); return null; } } },
    });
    const exported = exportToOpenTelemetry(session, { tracer: provider.getTracer("test") });
    const received: unknown[] = [];
    await expect(async () => {
      for await (const chunk of model.stream({ messages: [{ role: "user", content: "go" }] })) received.push(chunk);
    }).rejects.toThrow("stop here");
    await exported.end();

    const all = spans();
    expect(spanTree(all)).toEqual(["session", "  chat m-x", ...Array.from({ length: 4 }, () => "    stream_handler Object")]);
    const handlers = all.filter((s: ReadableSpan) => s.name === "stream_handler Object");
    expect(handlers.map((s) => s.status.code).sort()).toEqual([SpanStatusCode.UNSET, SpanStatusCode.UNSET, SpanStatusCode.UNSET, SpanStatusCode.ERROR]);
    expect(only(all, "chat m-x").status.code).toBe(SpanStatusCode.ERROR);
  });

  it("streamHandlerSpans: false keeps a long stream to its one chat span", async () => {
    const { provider, spans } = memoryTracing();
    const model = new IModel({ endpoint: new ScriptedEndpoint({ model: "m-q", script: [script()] }), hookRegistry: { streamHandlers: { Object: () => null } } });
    const exported = exportToOpenTelemetry(model, { tracer: provider.getTracer("test"), streamHandlerSpans: false });
    for await (const _chunk of model.stream({ messages: [] })) void _chunk;
    await exported.end();
    expect(spanTree(spans())).toEqual(["session", "  chat m-q"]);
  });
});
