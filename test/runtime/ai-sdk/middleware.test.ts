// hookLensMiddleware() around the real AI SDK (6 and 7) and its own mock models: what every
// model call records (params, parts, tool calls, finish reason, usage, latency, errors), and that
// the program sees exactly what it would without it.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { REDACTION_MASK } from "@hooklens/runtime";
import { hookLensMiddleware } from "@hooklens/runtime/ai-sdk";
import { answer, payloadsOf, recordingObserver, streamParts, toolCall, VERSIONS } from "./support.js";

describe.each(VERSIONS)("hookLensMiddleware on AI SDK $name", (sdk) => {
  const { generateText, streamText, stepCountIs, tool, wrapLanguageModel } = sdk.ai;

  it("records each model call of a tool loop: params (redacted), tool calls, finish reason, usage and latency", async () => {
    const { observer, records } = recordingObserver();
    const model = wrapLanguageModel({
      model: sdk.model([() => toolCall("add", { a: 1, b: 2 }), () => answer("3")]) as never,
      middleware: hookLensMiddleware({ signals: observer }),
    });
    const add = tool({ inputSchema: z.object({ a: z.number(), b: z.number() }), execute: async ({ a, b }: { a: number; b: number }) => a + b });
    const result = await generateText({ model, prompt: "1+2?", tools: { add }, stopWhen: stepCountIs(3), headers: { authorization: "Bearer sk-secret" }, temperature: 0.25 });
    expect(result.text).toBe("3");

    const all = await records();
    const started = payloadsOf(all, "ModelCallStarted");
    const finished = payloadsOf(all, "ModelCallFinished");
    expect(started).toHaveLength(2);
    expect(started[0]).toMatchObject({ source: "ai-sdk", model: "mock-model", provider: "mock-provider", stream: false });
    const request = started[0]!["request"] as Record<string, unknown>;
    expect(request).toMatchObject({ temperature: 0.25, tools: ["add"], headers: { authorization: REDACTION_MASK } });
    expect(JSON.stringify(request["prompt"])).toContain("1+2?");
    expect(request).not.toHaveProperty("abortSignal");
    expect(finished.map((f) => [f["callId"], f["status"], f["finishReason"], f["inputTokens"], f["outputTokens"]])).toEqual([
      [started[0]!["callId"], "ok", "tool-calls", 7, 2],
      [started[1]!["callId"], "ok", "stop", 7, 2],
    ]);
    expect(finished[0]!["response"]).toEqual({ toolCalls: [{ toolName: "add", toolCallId: "call-1", input: '{"a":1,"b":2}' }] });
    for (const f of finished) expect(f["durationMs"]).toBeGreaterThanOrEqual(0);
  });

  it("records a streamed call's parts in batches and its end, and hands every part on unchanged", async () => {
    const { observer, records } = recordingObserver();
    const words = Array.from({ length: 40 }, (_, i) => `w${i} `);
    const model = wrapLanguageModel({ model: sdk.model([], () => streamParts(words)) as never, middleware: hookLensMiddleware({ signals: observer }) });
    const result = streamText({ model, prompt: "talk" });
    expect(await result.text).toBe(words.join(""));

    const all = await records();
    const [started] = payloadsOf(all, "ModelCallStarted");
    expect(started).toMatchObject({ stream: true, model: "mock-model" });
    const parts = words.length + 5;
    expect(payloadsOf(all, "ModelStreamChunks").map((batch) => batch["chunks"])).toEqual([32, parts - 32]);
    expect(payloadsOf(all, "ModelCallFinished")).toEqual([
      expect.objectContaining({ status: "ok", finishReason: "stop", chunks: parts, responseModel: "mock-answering-model", inputTokens: 7, outputTokens: 2 }),
    ]);
  });

  it("records the params a middleware before it edited, and nothing changes what the model receives", async () => {
    const { observer, records } = recordingObserver();
    const inner = sdk.model([() => answer("ok")]) as { doGenerateCalls: Array<Record<string, unknown>> };
    const editor = { specificationVersion: "v3" as const, transformParams: async ({ params }: { params: Record<string, unknown> }) => ({ ...params, temperature: 0 }) };
    const model = wrapLanguageModel({ model: inner as never, middleware: [editor as never, hookLensMiddleware({ signals: observer })] });
    await generateText({ model, prompt: "edit me", temperature: 0.9 });

    const [started] = payloadsOf(await records(), "ModelCallStarted");
    expect((started!["request"] as Record<string, unknown>)["temperature"]).toBe(0);
    expect(inner.doGenerateCalls.map((call) => call["temperature"])).toEqual([0]);
  });

  it("records a provider error as a failed call and lets the very same error through", async () => {
    const { observer, records } = recordingObserver();
    const failure = new Error("provider down");
    const model = wrapLanguageModel({
      model: sdk.model([() => Promise.reject(failure)]) as never,
      middleware: hookLensMiddleware({ signals: observer }),
    });
    const thrown = await generateText({ model, prompt: "x", maxRetries: 0 }).catch((error: unknown) => error);
    expect(thrown).toBe(failure);
    expect(payloadsOf(await records(), "ModelCallFinished")).toEqual([expect.objectContaining({ status: "error", error: { name: "Error", message: "provider down" } })]);
  });

  it("records a streamed provider error part as a failed call; the program's onError still gets it", async () => {
    const { observer, records } = recordingObserver();
    const failure = new Error("overloaded");
    const model = wrapLanguageModel({
      model: sdk.model([], () => [{ type: "stream-start", warnings: [] }, { type: "error", error: failure }]) as never,
      middleware: hookLensMiddleware({ signals: observer }),
    });
    const seen: unknown[] = [];
    const result = streamText({ model, prompt: "x", onError: ({ error }: { error: unknown }) => void seen.push(error) });
    await result.consumeStream();
    expect(seen).toEqual([failure]);
    expect(payloadsOf(await records(), "ModelCallFinished")).toEqual([expect.objectContaining({ status: "error", error: { name: "Error", message: "overloaded" }, chunks: 2 })]);
  });

  it("records a stream its reader gave up as cancelled", async () => {
    const { observer, records } = recordingObserver();
    // A provider stream that sends its first parts and then waits for more, until it is cancelled.
    let cancelled!: () => void;
    const sourceCancelled = new Promise<void>((resolve) => (cancelled = resolve));
    const hanging = () =>
      new ReadableStream({
        start(controller) {
          for (const part of streamParts(["a"]).slice(0, 4)) controller.enqueue(part);
        },
        cancel: () => cancelled(),
      });
    const inner = sdk.model([]) as { doStream: unknown };
    inner.doStream = async () => ({ stream: hanging() });
    const model = wrapLanguageModel({ model: inner as never, middleware: hookLensMiddleware({ signals: observer }) });
    // The wrapped model's own stream, read as streamText reads it, then given up by its reader.
    const { stream } = (await (model as unknown as { doStream(options: object): Promise<{ stream: ReadableStream }> }).doStream({
      prompt: [{ role: "user", content: [{ type: "text", text: "x" }] }],
    }));
    const reader = stream.getReader();
    for (let i = 0; i < 4; i++) await reader.read();
    await reader.cancel("enough");
    await sourceCancelled;
    const finished = payloadsOf(await records(), "ModelCallFinished");
    expect(finished.map((f) => [f["status"], f["chunks"]])).toEqual([["cancelled", 4]]);
  });
});

describe("hookLensMiddleware with nothing to record to", () => {
  it("only calls through when no recorder, live view or OpenTelemetry export is on", async () => {
    const middleware = hookLensMiddleware();
    const marker = { content: [] };
    await expect(middleware.wrapGenerate({ doGenerate: async () => marker, doStream: async () => null, params: {}, model: {} })).resolves.toBe(marker);
  });
});
