// Overhead of the service hooks: one IModel.invoke with all three phases registered (no-op
// handlers, sync and async) against the same invoke with no hooks, all through the public
// IModel.invoke in one run. Measured twice: on the offline scripted endpoint (no I/O at all, so
// the ratio is the hooks' raw cost against a near-empty call) and on the OpenAI-compatible
// endpoint talking to a local HTTP server (the smallest real provider round trip).
//
// On the scripted endpoint a third figure, the floor, says how close to 1.2× any faithful
// implementation can come on this machine: the unhooked call plus only what three hooked phases
// cannot avoid doing (three HookEvents built, as the API exposes them; three more clock readings,
// as each phase records its own duration and adjacent phases already share theirs; three handler
// calls; three hook-log entries). Everything above the floor is HookLens's own bookkeeping.
//
// Each figure is reported twice: as CPU time per call (what this process spent, garbage
// collection included; other processes on a shared machine do not count) and as wall time per
// call. The CPU figure is the one to read on a busy machine; on a quiet one both agree.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import {
  APICalling,
  globalHookLog,
  HookEvent,
  HookEventTypes,
  HookRegistry,
  IModel,
  OpenAIChatEndpoint,
  ScriptedEndpoint,
  type Endpoint,
  type HookParams,
} from "../../runtime/src/index.js";
import { report, type Comparison, type Measurement } from "./measure.js";

const request = { messages: [{ role: "user", content: "ping" }] };
const reply = JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", content: "pong" } }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } });

function models(endpoint: Endpoint): { bare: IModel; asyncHooks: IModel; syncHooks: IModel } {
  const registry = (handler: () => unknown): HookRegistry =>
    new HookRegistry({ hooks: { pre_event_create: handler, pre_invocation: handler, post_invocation: handler } });
  return {
    bare: new IModel({ endpoint }),
    asyncHooks: new IModel({ endpoint, hookRegistry: registry(async () => {}) }),
    syncHooks: new IModel({ endpoint, hookRegistry: registry(() => {}) }),
  };
}

type Candidate = readonly [name: string, call: () => Promise<unknown>];

/** The HookEvents of one hooked call, built as the API exposes them (what any faithful run must build). */
function hookEvents(registry: HookRegistry, createdAt: number): [preCreate: HookEvent, pre: HookEvent, post: HookEvent] {
  const preCreate = new HookEvent({ registry, hookType: HookEventTypes.PreEventCreate, eventLike: APICalling, createdAt });
  const pre = new HookEvent({ registry, hookType: HookEventTypes.PreInvocation, eventLike: preCreate, createdAt });
  const post = new HookEvent({ registry, hookType: HookEventTypes.PostInvocation, eventLike: preCreate, createdAt });
  return [preCreate, pre, post];
}

const params: HookParams = { exit: false };

// The three clock readings a faithful run adds to the unhooked call's own: the pre-create hook's
// start (its end is the APICalling's creation), the pre hook's end (its start is the call's) and
// the post hook's start (its end is the call's).

/** The sync floor: the unhooked call plus three events, three readings, three handler calls, three log entries. */
function syncFloor(bare: IModel, registry: HookRegistry): () => Promise<unknown> {
  const handler = (_event: unknown, _params: HookParams): void => {};
  return () => {
    const [preCreate, pre, post] = hookEvents(registry, performance.now() / 1000);
    handler(preCreate, params);
    globalHookLog.log(preCreate);
    handler(pre, params);
    performance.now();
    globalHookLog.log(pre);
    performance.now();
    handler(post, params);
    globalHookLog.log(post);
    return bare.invoke(request);
  };
}

/** The async floor: the same, each handler's promise awaited where a hooked call awaits it. */
function asyncFloor(bare: IModel, registry: HookRegistry): () => Promise<unknown> {
  const handler = async (_event: unknown, _params: HookParams): Promise<void> => {};
  return async () => {
    const [preCreate, pre, post] = hookEvents(registry, performance.now() / 1000);
    await handler(preCreate, params);
    globalHookLog.log(preCreate);
    await handler(pre, params);
    performance.now();
    globalHookLog.log(pre);
    const call = await bare.invoke(request);
    performance.now();
    await handler(post, params);
    globalHookLog.log(post);
    return call;
  };
}

interface Timings {
  cpu: Measurement[];
  wall: Measurement[];
}

/**
 * Times the candidates in many short interleaved batches (the order rotating every round), so a
 * burst of load lands on every candidate alike; each figure is the median of its batches.
 */
async function interleaved(candidates: readonly Candidate[], rounds: number, batchMs = 20): Promise<Timings> {
  const sizes: number[] = [];
  for (const [, call] of candidates) sizes.push(await batchSize(call, batchMs));
  const cpu: number[][] = candidates.map(() => []);
  const wall: number[][] = candidates.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < candidates.length; k++) {
      const index = (round + k) % candidates.length;
      const call = candidates[index]![1];
      const iterations = sizes[index]!;
      const cpuStart = process.cpuUsage();
      const wallStart = process.hrtime.bigint();
      for (let i = 0; i < iterations; i++) await call();
      const wallNs = Number(process.hrtime.bigint() - wallStart);
      const { user, system } = process.cpuUsage(cpuStart);
      wall[index]!.push(wallNs / iterations);
      cpu[index]!.push(((user + system) * 1000) / iterations);
    }
  }
  const figures = (samples: number[][]): Measurement[] => candidates.map(([name], index) => ({ name, nsPerOp: median(samples[index]!) }));
  return { cpu: figures(cpu), wall: figures(wall) };
}

/** How many calls last about `ms` milliseconds (warming the JIT on the way). */
async function batchSize(call: () => Promise<unknown>, ms: number): Promise<number> {
  let iterations = 64;
  for (;;) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) await call();
    const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
    if (elapsed >= ms) return Math.max(1, Math.round((iterations * ms) / elapsed));
    iterations *= 2;
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

interface Rows {
  cpu: Comparison[];
  wall: Comparison[];
}

async function compare(label: string, endpoint: Endpoint, target: number, rounds: number, withFloor: boolean): Promise<Rows> {
  const { bare, asyncHooks, syncHooks } = models(endpoint);
  const candidates: Candidate[] = [
    [`unhooked (${label})`, () => bare.invoke(request)],
    ["async", () => asyncHooks.invoke(request)],
    ["sync", () => syncHooks.invoke(request)],
  ];
  if (withFloor) candidates.push(["async floor", asyncFloor(bare, syncHooks.hookRegistry)], ["sync floor", syncFloor(bare, syncHooks.hookRegistry)]);
  for (const [, call] of candidates) for (let i = 0; i < 2000; i++) await call();
  const timings = await interleaved(candidates, rounds);
  globalHookLog.clear();
  const rows = ([baseline, asyncRow, syncRow, asyncFloorRow, syncFloorRow]: Measurement[]): Comparison[] => [
    { label: `${label}: 3 phases, async no-op handlers`, subject: asyncRow!, baseline: baseline!, target },
    { label: `${label}: 3 phases, sync no-op handlers`, subject: syncRow!, baseline: baseline!, target },
    ...(asyncFloorRow && syncFloorRow
      ? [
          { label: `${label}: floor of any faithful run, async`, subject: asyncFloorRow, baseline: baseline! },
          { label: `${label}: floor of any faithful run, sync`, subject: syncFloorRow, baseline: baseline! },
        ]
      : []),
  ];
  return { cpu: rows(timings.cpu), wall: rows(timings.wall) };
}

export async function run(): Promise<string> {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(reply) });
      res.end(reply);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const scripted = await compare("scripted", new ScriptedEndpoint({ script: ["pong"] }), 1.2, 45, true);
    const http = await compare("loopback HTTP", new OpenAIChatEndpoint({ baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: "bench" }), 1.2, 15, false);
    return [
      report("service: IModel.invoke, hooked vs unhooked (CPU time per call)", [...scripted.cpu, ...http.cpu]),
      report("service: IModel.invoke, hooked vs unhooked (wall time per call)", [...scripted.wall, ...http.wall]),
    ].join("\n");
  } finally {
    server.closeAllConnections();
    server.close();
  }
}
