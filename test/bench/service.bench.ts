// Overhead of the service hooks: one IModel.invoke with all three phases registered (no-op
// handlers) against the same invoke with no hooks, in one run. Measured twice: on the offline
// scripted endpoint (no I/O at all, so the ratio is the hooks' raw cost against a near-empty
// call) and on the OpenAI-compatible endpoint talking to a local HTTP server (the smallest real
// provider round trip).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { globalHookLog, HookRegistry, IModel, OpenAIChatEndpoint, ScriptedEndpoint, type Endpoint } from "../../runtime/src/index.js";
import { measure, report, type Comparison, type Measurement } from "./measure.js";

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

async function compare(label: string, endpoint: Endpoint, target: number): Promise<Comparison[]> {
  const { bare, asyncHooks, syncHooks } = models(endpoint);
  for (const model of [bare, asyncHooks, syncHooks]) for (let i = 0; i < 200; i++) await model.invoke(request);
  // Three interleaved rounds; each figure keeps its fastest round, so a burst of load from other
  // processes (or connection set-up) cannot favour one side of the ratio.
  const best = new Map<string, Measurement>();
  for (let round = 0; round < 3; round++) {
    for (const [name, model] of [
      [`unhooked (${label})`, bare],
      ["async", asyncHooks],
      ["sync", syncHooks],
    ] as const) {
      const m = await measure(name, () => model.invoke(request), { batches: 9 });
      const previous = best.get(name);
      if (!previous || m.nsPerOp < previous.nsPerOp) best.set(name, m);
    }
  }
  globalHookLog.clear();
  const baseline = best.get(`unhooked (${label})`)!;
  return [
    { label: `${label}: 3 phases, async no-op handlers`, subject: best.get("async")!, baseline, target },
    { label: `${label}: 3 phases, sync no-op handlers`, subject: best.get("sync")!, baseline, target },
  ];
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
    const scripted = await compare("scripted", new ScriptedEndpoint({ script: ["pong"] }), 1.2);
    const http = await compare("loopback HTTP", new OpenAIChatEndpoint({ baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: "bench" }), 1.2);
    return report("service: IModel.invoke, hooked vs unhooked", [...scripted, ...http]);
  } finally {
    server.closeAllConnections();
    server.close();
  }
}
