// The AI SDK bridge's cost: hookLensMiddleware() on a model wrapped with the SDK's own
// wrapLanguageModel, against the same model unwrapped and wrapped with a middleware that only
// calls through. Per model call (doGenerate: one ModelCallStarted and one ModelCallFinished
// recorded into a SessionObserver) and per stream part (doStream read to its end, 1,000 parts).
// Targets of issue 37: ≤ 2 µs added per call, ≤ 0.5 µs added per part (against the pass-through
// middleware, which is what wrapping costs whoever wraps). CPU time, so a busy machine reads true.
import { wrapLanguageModel } from "ai";
import { SessionObserver } from "../../runtime/src/index.js";
import { hookLensMiddleware } from "../../runtime/src/ai-sdk/index.js";
import type { Measurement } from "./measure.js";

const USAGE = { inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
const RESULT = { content: [{ type: "text", text: "ok" }], finishReason: { unified: "stop", raw: "stop" }, usage: USAGE, warnings: [] };
const PARTS = 1000;
const STREAM_PARTS = [
  { type: "stream-start", warnings: [] },
  { type: "text-start", id: "t" },
  ...Array.from({ length: PARTS - 4 }, () => ({ type: "text-delta", id: "t", delta: "w" })),
  { type: "text-end", id: "t" },
  { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage: USAGE },
];
const OPTIONS = { prompt: [{ role: "user", content: [{ type: "text", text: "ping" }] }], temperature: 0 };

/**
 * CPU time per call of `fn` (this process's, garbage collection included), the median of
 * `batches` batches of `iterations`: on a machine shared with other work, wall time measures the
 * neighbours too.
 */
async function measure(name: string, fn: () => unknown, iterations: number, batches = 11): Promise<Measurement> {
  for (let i = 0; i < iterations; i++) await fn(); // warm-up
  const samples: number[] = [];
  for (let b = 0; b < batches; b++) {
    const start = process.cpuUsage();
    for (let i = 0; i < iterations; i++) await fn();
    const used = process.cpuUsage(start);
    samples.push(((used.user + used.system) * 1000) / iterations);
  }
  samples.sort((a, b) => a - b);
  return { name, nsPerOp: samples[Math.floor(samples.length / 2)]! };
}

/** A language model with nothing in it: what is left of a call is the wrapping's own cost. */
const model = {
  specificationVersion: "v4",
  provider: "bench",
  modelId: "bench-model",
  supportedUrls: {},
  doGenerate: async () => RESULT,
  doStream: async () => ({
    stream: new ReadableStream({
      start(controller) {
        for (const part of STREAM_PARTS) controller.enqueue(part);
        controller.close();
      },
    }),
  }),
};

interface CallableModel {
  doGenerate(options: unknown): PromiseLike<unknown>;
  doStream(options: unknown): PromiseLike<{ stream: ReadableStream }>;
}

/**
 * The floor of seeing a stream's parts: the model's stream behind the cheapest pass-through layer
 * a web stream allows (a pull that hands each read on, nothing else).
 */
const floorModel: CallableModel = {
  doGenerate: () => model.doGenerate(),
  async doStream() {
    const reader = (await model.doStream()).stream.getReader();
    let controller!: ReadableStreamDefaultController<unknown>;
    const passOn = (next: { done: boolean; value?: unknown }): void => (next.done ? controller.close() : controller.enqueue(next.value));
    const stream = new ReadableStream({ start: (c) => void (controller = c), pull: () => reader.read().then(passOn) }, { highWaterMark: 0 });
    return { stream };
  },
};

async function readAll(subject: CallableModel): Promise<void> {
  const { stream } = await subject.doStream(OPTIONS);
  const reader = stream.getReader();
  while (!(await reader.read()).done);
}

export async function run(): Promise<string> {
  const observer = new SessionObserver();
  const candidates: Array<[string, CallableModel]> = [
    ["unwrapped model", model as unknown as CallableModel],
    ["pass-through middleware", wrapLanguageModel({ model: model as never, middleware: { wrapGenerate: ({ doGenerate }) => doGenerate(), wrapStream: ({ doStream }) => doStream() } }) as unknown as CallableModel],
    ["hookLensMiddleware()", wrapLanguageModel({ model: model as never, middleware: hookLensMiddleware({ signals: observer }) }) as unknown as CallableModel],
  ];
  const calls: Measurement[] = [];
  const streams: Measurement[] = [];
  for (const [name, subject] of candidates) calls.push(await measure(name, () => subject.doGenerate(OPTIONS), 20_000));
  for (const [name, subject] of [...candidates, ["one stream layer", floorModel] as [string, CallableModel]]) streams.push(await measure(name, () => readAll(subject), 40));
  const [bareCall, passCall, hookCall] = calls as [Measurement, Measurement, Measurement];
  const [bareStream, passStream, hookStream, floorStream] = streams as [Measurement, Measurement, Measurement, Measurement];
  const floorPerPart = (floorStream.nsPerOp - bareStream.nsPerOp) / PARTS / 1000;
  const perCall = (hookCall.nsPerOp - passCall.nsPerOp) / 1000;
  const perPart = (hookStream.nsPerOp - passStream.nsPerOp) / PARTS / 1000;
  const us = (ns: number) => `${(ns / 1000).toFixed(2)} µs`;
  return [
    "\nAI SDK bridge (hookLensMiddleware on wrapLanguageModel, AI SDK 7)",
    `  per call: unwrapped ${us(bareCall.nsPerOp)}, pass-through middleware ${us(passCall.nsPerOp)}, hookLensMiddleware ${us(hookCall.nsPerOp)}`,
    `    added by HookLens: ${perCall.toFixed(2)} µs per call  ${perCall <= 2 ? "ok" : "OVER"} (target ≤ 2 µs)`,
    `  per stream of ${PARTS} parts: unwrapped ${us(bareStream.nsPerOp)}, pass-through ${us(passStream.nsPerOp)}, hookLensMiddleware ${us(hookStream.nsPerOp)}`,
    `    added by HookLens: ${perPart.toFixed(3)} µs per part  ${perPart <= 0.5 ? "ok" : "OVER"} (target ≤ 0.5 µs)`,
    `    the floor, one pass-through stream layer and nothing else: ${floorPerPart.toFixed(3)} µs per part; HookLens above it: ${(perPart - floorPerPart).toFixed(3)} µs`,
  ].join("\n");
}
