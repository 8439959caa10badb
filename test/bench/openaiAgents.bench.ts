// The OpenAI Agents bridge's cost per tool call: the same real Runner run (a scripted model that
// calls a tool ten times, then answers; tracing on, no other processor) without HookLens and with
// instrumentRunner(runner) recording into a SessionObserver. Target of issue 36: ≤ 1.1× per tool
// call. CPU time (this process's, garbage collection included), the median of batches, so a busy
// machine reads true.
import { Agent, Runner, setTraceProcessors, setTracingDisabled, tool } from "@openai/agents";
import { z } from "zod";
import { SessionObserver } from "../../runtime/src/index.js";
import { instrumentRunner } from "../../runtime/src/openai-agents/index.js";
import { ScriptedModel, scriptedProvider, type Turn } from "../runtime/openai-agents/scriptedModel.js";
import type { Measurement } from "./measure.js";

const TOOL_CALLS = 10;
const TARGET = 1.1;
const PAIRS = 31;

const echo = tool({ name: "echo", description: "Echoes.", parameters: z.object({ text: z.string() }), execute: async ({ text }) => text });
const TURNS: Turn[] = [...Array.from({ length: TOOL_CALLS }, (_, i) => ({ call: "echo", args: { text: `step ${i}` } })), { text: "done" }];

function oneRun(runner: Runner): Promise<unknown> {
  const model = new ScriptedModel(TURNS);
  return runner.run(new Agent({ name: "bench", instructions: "Echo.", tools: [echo], model }), "go", { maxTurns: TOOL_CALLS + 2 });
}

/** CPU time of `iterations` runs, in ns per run. */
async function batch(runner: Runner, iterations: number): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < iterations; i++) await oneRun(runner);
  const used = process.cpuUsage(start);
  return ((used.user + used.system) * 1000) / iterations;
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export async function run(): Promise<string> {
  // No export to the OpenAI dashboard (no network), tracing on as in a program outside tests.
  setTraceProcessors([]);
  setTracingDisabled(false);
  const runner = new Runner({ modelProvider: scriptedProvider(new ScriptedModel([])) });
  for (let i = 0; i < 200; i++) await oneRun(runner); // warm-up: the JIT settles first
  // Without and with HookLens in alternating batches, so both see the same machine (a shared one
  // drifts by more than the difference). Detached, the bridge's processor stays added but idle:
  // the SDK cannot remove a processor; its idle cost is one empty loop per span.
  const observer = new SessionObserver();
  const without: number[] = [];
  const withBridge: number[] = [];
  const ratios: number[] = [];
  for (let pair = 0; pair < PAIRS; pair++) {
    // Which goes first alternates too: a batch right after a detach pays for the garbage before it.
    const first = pair % 2 === 0;
    if (first) without.push(await batch(runner, 4));
    const bridge = instrumentRunner(runner, { signals: observer });
    withBridge.push(await batch(runner, 4));
    bridge.detach();
    if (!first) without.push(await batch(runner, 4));
    ratios.push(withBridge.at(-1)! / without.at(-1)!);
  }
  const bare: Measurement = { name: "without HookLens", nsPerOp: median(without) };
  const bridged: Measurement = { name: "instrumentRunner(runner)", nsPerOp: median(withBridge) };
  // The median of the paired ratios: each pair ran back to back, so the machine's drift cancels.
  const ratio = median(ratios);
  const perCall = (bridged.nsPerOp - bare.nsPerOp) / TOOL_CALLS / 1000;
  const ms = (m: Measurement) => `${(m.nsPerOp / 1e6).toFixed(2)} ms`;
  return [
    `\nOpenAI Agents bridge (a Runner run of ${TOOL_CALLS} tool calls, @openai/agents 0.20.0)`,
    `  per run (medians of ${PAIRS} alternating batches): without HookLens ${ms(bare)}, instrumentRunner ${ms(bridged)}`,
    `  per tool call: ${ratio.toFixed(3)}× (median of the paired ratios; ${perCall.toFixed(1)} µs added by the medians)  ${ratio <= TARGET ? "ok" : "OVER"} (target ≤ ${TARGET}×)`,
  ].join("\n");
}
