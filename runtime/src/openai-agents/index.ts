/** @hooklens/runtime/openai-agents: OpenAI Agents JS runs as HookLens signals (live view, recordings, OpenTelemetry). */
export { instrumentRunner } from "./instrumentRunner.js";
export type { InstrumentOptions, OpenAIAgentsInstrumentation } from "./instrumentRunner.js";
export type { RunnerLike } from "./lifecycle.js";
export type { RunResultLike } from "./resultSignals.js";
