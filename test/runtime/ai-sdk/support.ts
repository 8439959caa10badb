// The real AI SDK, twice (7 as `ai`, 6 as `ai-v6`), with its own mock language models scripted
// for the bridge's tests: the same scripts run on both, so every assertion holds for both.
import * as v7 from "ai";
import * as v7Test from "ai/test";
import * as v6 from "ai-v6";
import * as v6Test from "ai-v6/test";
import { InMemorySignalStore, SessionObserver, type SessionSignalRecord } from "@hooklens/runtime";

const USAGE = { inputTokens: { total: 7, noCache: 7, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 2, text: 2, reasoning: 0 } };
const stop = { unified: "stop", raw: "stop" } as const;

/** A generate result: text, or a tool call. */
export function answer(text: string) {
  return { content: [{ type: "text" as const, text }], finishReason: stop, usage: USAGE, warnings: [] };
}

export function toolCall(toolName: string, input: object, toolCallId = "call-1") {
  return {
    content: [{ type: "tool-call" as const, toolCallId, toolName, input: JSON.stringify(input) }],
    finishReason: { unified: "tool-calls", raw: "tool_calls" } as const,
    usage: USAGE,
    warnings: [],
  };
}

/** The stream parts of a streamed answer `words`, one text delta each. */
export function streamParts(words: readonly string[]): unknown[] {
  return [
    { type: "stream-start", warnings: [] },
    { type: "response-metadata", id: "r-1", modelId: "mock-answering-model", timestamp: new Date(0) },
    { type: "text-start", id: "t" },
    ...words.map((delta) => ({ type: "text-delta", id: "t", delta })),
    { type: "text-end", id: "t" },
    { type: "finish", finishReason: stop, usage: USAGE },
  ];
}

/** One installed major of the SDK, as the tests use it. */
export interface SdkVersion {
  readonly name: "v6" | "v7";
  readonly ai: typeof v7;
  /** A mock model that answers each call with the next generate result, and streams `stream` parts. */
  model(generate: ReadonlyArray<() => unknown>, stream?: () => unknown[]): unknown;
  readonly convertArrayToReadableStream: typeof v7Test.convertArrayToReadableStream;
}

function scripted(generate: ReadonlyArray<() => unknown>): () => Promise<never> {
  let call = 0;
  return async () => {
    const next = generate[Math.min(call++, generate.length - 1)];
    return next!() as never;
  };
}

export const VERSIONS: readonly SdkVersion[] = [
  {
    name: "v6",
    ai: v6 as unknown as typeof v7,
    model: (generate, stream) =>
      new v6Test.MockLanguageModelV3({
        modelId: "mock-model",
        doGenerate: scripted(generate),
        doStream: async () => ({ stream: v6Test.convertArrayToReadableStream((stream?.() ?? []) as never[]) }),
      }),
    convertArrayToReadableStream: v6Test.convertArrayToReadableStream as typeof v7Test.convertArrayToReadableStream,
  },
  {
    name: "v7",
    ai: v7,
    model: (generate, stream) =>
      new v7Test.MockLanguageModelV4({
        modelId: "mock-model",
        doGenerate: scripted(generate),
        doStream: async () => ({ stream: v7Test.convertArrayToReadableStream((stream?.() ?? []) as never[]) }),
      }),
    convertArrayToReadableStream: v7Test.convertArrayToReadableStream,
  },
];

/** An observer persisting to memory, and the records it persisted once flushed. */
export function recordingObserver(): { observer: SessionObserver; records: () => Promise<SessionSignalRecord[]> } {
  const store = new InMemorySignalStore();
  const observer = new SessionObserver();
  observer.bindDbPersistence("ai-sdk-test", store);
  return {
    observer,
    records: async () => {
      await observer.flush();
      return [...store.records];
    },
  };
}

/** The payloads of the records of `kind`, in order. */
export function payloadsOf(records: readonly SessionSignalRecord[], kind: string): Array<Record<string, unknown>> {
  return records.filter((record) => record.kind === kind).map((record) => record.payload as Record<string, unknown>);
}
