// observeAiSdk(): AI SDK 7's own diagnostics channel (`ai:telemetry`) as nested calls, with no
// change to the program's calls; what reaches a SQLite recording and OpenTelemetry spans.
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { SessionObserver, type SessionSignalRecord } from "@hooklens/runtime";
import { AI_SDK_TRACING_CHANNEL, hookLensMiddleware, observeAiSdk } from "@hooklens/runtime/ai-sdk";
import { SqliteSignalStore } from "@hooklens/runtime/store";
import { exportToOpenTelemetry } from "@hooklens/runtime/otel";
import * as ai from "ai";
import { testTempDir } from "../../helpers/tempDir.js";
import { memoryTracing, spanTree } from "../otel/support.js";
import { answer, payloadsOf, recordingObserver, toolCall, VERSIONS } from "./support.js";

const [v6, v7] = VERSIONS as [(typeof VERSIONS)[number], (typeof VERSIONS)[number]];
let stop: (() => void) | null = null;
afterEach(() => {
  stop?.();
  stop = null;
});

/** Each call as `name` lines indented under its parent: what the Signals view nests. */
function callTree(records: readonly SessionSignalRecord[]): string[] {
  const calls = [...payloadsOf(records, "ModelCallStarted"), ...payloadsOf(records, "ToolCallStarted")].sort((a, b) => Number(a["createdAt"]) - Number(b["createdAt"]));
  const name = (call: Record<string, unknown>): string => {
    if (typeof call["toolName"] === "string") return `tool ${call["toolName"]}`;
    const request = call["request"] as Record<string, unknown> | null;
    const operation = request?.["operation"];
    if (operation === "step") return `step ${String(request?.["stepNumber"])}`;
    return typeof operation === "string" ? operation : `model call (middleware)`;
  };
  const lines: string[] = [];
  const walk = (parent: unknown, depth: number): void => {
    for (const call of calls.filter((c) => (c["parentCallId"] ?? null) === parent)) {
      lines.push(`${"  ".repeat(depth)}${name(call)}`);
      walk(call["callId"], depth + 1);
    }
  };
  walk(null, 0);
  return lines;
}

function toolLoopModel() {
  return v7.model([() => toolCall("add", { a: 1, b: 2 }), () => answer("3")]);
}

const add = ai.tool({ inputSchema: z.object({ a: z.number(), b: z.number() }), execute: async ({ a, b }) => a + b });

describe("observeAiSdk on AI SDK 7", () => {
  it("names the SDK's channel", () => {
    expect(AI_SDK_TRACING_CHANNEL).toBe(ai.AI_SDK_TELEMETRY_TRACING_CHANNEL);
  });

  it("records generateText, its steps, model calls and tool executions as nested calls; the middleware's calls nest inside", async () => {
    const { observer, records } = recordingObserver();
    stop = observeAiSdk({ signals: observer });
    const model = ai.wrapLanguageModel({ model: toolLoopModel() as never, middleware: hookLensMiddleware({ signals: observer }) });
    const result = await ai.generateText({ model, prompt: "1+2?", tools: { add }, stopWhen: ai.isStepCount(3) });
    expect(result.text).toBe("3");

    const all = await records();
    expect(callTree(all)).toEqual([
      "generateText",
      "  step 0",
      "    languageModelCall",
      "      model call (middleware)",
      "    tool add",
      "  step 1",
      "    languageModelCall",
      "      model call (middleware)",
    ]);
    expect(payloadsOf(all, "ToolCallStarted")).toEqual([expect.objectContaining({ toolName: "add", source: "ai-sdk", arguments: { a: 1, b: 2 } })]);
    expect(payloadsOf(all, "ToolCallFinished")).toEqual([expect.objectContaining({ toolName: "add", status: "ok", result: 3 })]);
    const operation = payloadsOf(all, "ModelCallFinished").at(-1);
    expect(operation).toMatchObject({ status: "ok", finishReason: "stop", inputTokens: 14, outputTokens: 4 });
  });

  it("records a failing tool execution and a streamText operation that fails on a provider error", async () => {
    const { observer, records } = recordingObserver();
    stop = observeAiSdk({ signals: observer });
    const explode = ai.tool({ inputSchema: z.object({}), execute: async (): Promise<string> => { throw new RangeError("tool broke"); } });
    await ai.generateText({ model: v7.model([() => toolCall("explode", {}), () => answer("sorry")]) as never, prompt: "x", tools: { explode }, stopWhen: ai.isStepCount(2) });
    const failure = new Error("provider down");
    const failing = v7.model([]) as { doStream: unknown };
    failing.doStream = async () => { throw failure; };
    const streamed = ai.streamText({ model: failing as never, prompt: "x", maxRetries: 0, onError: () => {} });
    await streamed.consumeStream();

    const all = await records();
    expect(payloadsOf(all, "ToolCallFinished")).toEqual([expect.objectContaining({ toolName: "explode", status: "error", error: { name: "RangeError", message: "tool broke" } })]);
    const streamText = payloadsOf(all, "ModelCallStarted").find((s) => (s["request"] as Record<string, unknown>)["operation"] === "streamText");
    expect(streamText).toMatchObject({ stream: true });
    const ends = payloadsOf(all, "ModelCallFinished").filter((f) => f["callId"] === streamText!["callId"]);
    expect(ends).toEqual([expect.objectContaining({ status: "error" })]);
  });

  it("records nothing once stopped, and AI SDK 6 (which has no such channel) records nothing", async () => {
    const { observer, records } = recordingObserver();
    observeAiSdk({ signals: observer })();
    await ai.generateText({ model: v7.model([() => answer("a")]) as never, prompt: "x" });
    stop = observeAiSdk({ signals: observer });
    await v6.ai.generateText({ model: v6.model([() => answer("b")]) as never, prompt: "x" });
    expect(await records()).toEqual([]);
  });

  it("writes the calls to a SQLite recording and to OpenTelemetry as one trace", async () => {
    const file = `${testTempDir()}/signals.db`;
    const store = await SqliteSignalStore.open(file);
    const observer = new SessionObserver();
    observer.bindDbPersistence("ai-sdk-run", store);
    const { provider, spans } = memoryTracing();
    const exported = exportToOpenTelemetry(observer, { tracer: provider.getTracer("test") });
    stop = observeAiSdk({ signals: observer });
    await ai.generateText({ model: toolLoopModel() as never, prompt: "1+2?", tools: { add }, stopWhen: ai.isStepCount(3) });
    await observer.flush();
    await exported.end();

    const rows = store.listSessionSignals("ai-sdk-run");
    expect(rows.map((row) => row.kind)).toEqual(expect.arrayContaining(["ModelCallStarted", "ModelCallFinished", "ToolCallStarted", "ToolCallFinished"]));
    expect(callTree(rows)).toEqual(["generateText", "  step 0", "    languageModelCall", "    tool add", "  step 1", "    languageModelCall"]);
    store.close();
    // generateText and each language model call are chat spans of the model; a step names none.
    expect(spanTree(spans())).toEqual(["session", "  chat mock-model", "    chat", "      chat mock-model", "      execute_tool add", "    chat", "      chat mock-model"]);
  });
});
