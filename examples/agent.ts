/**
 * The demo: one support-desk run through every hook scope of @hooklens/runtime.
 *
 * - Session scope: a TOOL_PRE guard on the session bus blocks a destructive call; TOOL_ERROR
 *   reports a failing tool; the observer records every signal (streams them to the editor when
 *   HOOKLENS_LIVE is set, and writes them to the SQLite file when one exists).
 * - Tool scope: zod-validated tools, run through act() on a Branch.
 * - Service scope: a model with its own pre/post-invocation hooks and a per-chunk stream handler.
 * - Middleware: the executor wraps every tool and model call with a budget and a rate limit.
 *
 * One handler sits on a dormant hook point: it never runs, and `hooklens check` says so (HL001).
 */
import { z } from "zod";
import {
  BranchTools,
  BudgetHook,
  closeEmbeddedSignalStores,
  Executor,
  HookPoint,
  HookRegistry,
  HookSignal,
  IModel,
  IModelClient,
  Ledger,
  PermissionError,
  Rate,
  RateLimitHook,
  ScriptedEndpoint,
  Session,
  Signal,
  Tool,
  toJsonSafe,
  type StreamHandler,
} from "@hooklens/runtime";

// Tool durations arrive in seconds as floats; people read milliseconds.
const inMs = (key: string, value: unknown) => (key === "duration" && typeof value === "number" ? `${(value * 1000).toFixed(3)} ms` : value);
const summary = (value: unknown) => (JSON.stringify(toJsonSafe(value), inMs) ?? "null").slice(0, 160);

function supportTools(): Tool[] {
  return [
    new Tool({
      name: "search",
      description: "Search the help centre.",
      requestOptions: z.object({ query: z.string() }),
      funcCallable: ({ query }: { query: string }) => ({ hits: [`${query}: free within 30 days`] }),
    }),
    new Tool({
      name: "refund",
      description: "Refund an order.",
      requestOptions: z.object({ orderId: z.string(), amount: z.number() }),
      funcCallable: ({ orderId, amount }: { orderId: string; amount: number }) => {
        if (amount > 100) throw new RangeError(`refund of ${amount} for ${orderId} needs a manager`);
        return { refunded: amount, orderId };
      },
    }),
    new Tool({
      name: "deleteFile",
      description: "Delete a file from the shared drive.",
      requestOptions: z.object({ path: z.string() }),
      funcCallable: ({ path }: { path: string }) => ({ deleted: path }),
    }),
  ];
}

/** A scripted model with its own hooks: one answer for invoke, one reply streamed in chunks. */
function supportModel(print: (line: string) => void): IModel {
  // Stream handlers are called as (null, chunkType, chunk, params); the return replaces the chunk.
  const toText: StreamHandler = (_event, _chunkType, chunk) => {
    const choice = (chunk as { choices: { delta: { content?: string } }[] }).choices[0];
    return choice?.delta.content ?? "";
  };
  const registry = new HookRegistry({ streamHandlers: { Object: toText } });
  registry.preInvoke(() => void print("  [service] pre-invocation hook: the model call is about to run"));
  registry.postInvoke(() => void print("  [service] post-invocation hook: the model call finished"));
  const endpoint = new ScriptedEndpoint({
    script: [
      {
        response: {
          choices: [{ index: 0, message: { role: "assistant", content: "Refunds under $100 are automatic." }, finish_reason: "stop" }],
          usage: { prompt_tokens: 800, completion_tokens: 200, total_tokens: 1000 },
        },
      },
      "Your refund is on its way.",
    ],
  });
  return new IModel({ endpoint, hookRegistry: registry });
}

export interface AgentRun {
  signals: Signal[];
  lines: string[];
}

export async function runAgent(print: (line: string) => void = console.log): Promise<AgentRun> {
  const lines: string[] = [];
  const say = (line: string) => {
    lines.push(line);
    print(line);
  };
  const session = new Session();
  // Every signal is also written to SQLite when .hooklens/signals.db (or $HOOKLENS_DB) exists;
  // `npm run demo` creates .hooklens/signals.db, then reads the session back with the CLI.
  session.observer.bindDbPersistence(session.id);
  const bus = session.hooks; // create the bus before the branch: a branch included earlier never gets it
  const branch = session.newBranch();

  bus.on(HookPoint.TOOL_PRE, ({ toolName, argsSummary }) => {
    if (toolName === "deleteFile" && argsSummary.includes('"/')) throw new PermissionError(`refusing to delete an absolute path: ${argsSummary}`);
  });
  bus.on(HookPoint.TOOL_ERROR, ({ toolName, error }) => void say(`  [session] TOOL_ERROR ${toolName}: ${String(error)}`));
  // Dormant: nothing emits API_PRE_CALL, so this handler never runs (HookLens reports HL001).
  bus.on(HookPoint.API_PRE_CALL, () => void say("  (this line is never printed)"));

  const tools = new BranchTools(branch);
  for (const tool of supportTools()) tools.register(tool);
  const model = supportModel(say);
  const ledger = new Ledger({ prices: { "scripted-model": { inputPerMillion: 300, outputPerMillion: 600 } } });
  const executor = new Executor(tools, {
    hooks: [new BudgetHook(1.0, { scope: "run" }), new RateLimitHook({ search: new Rate(5, 1), llm: new Rate(60, 60) })],
    ledger,
    model: new IModelClient(model),
  });
  const ctx = executor.context({ runId: "demo-run" });

  await bus.emit(HookPoint.SESSION_START, { sessionId: session.id, model: "scripted-model" });
  const reply = await executor.callLlm({ messages: [{ role: "user", content: "Can I get a refund?" }], stage: "plan" }, ctx);
  say(`model → ${reply.content} (spent $${ledger.totalUsd("demo-run").toFixed(4)})`);

  for (const [name, args] of [
    ["search", { query: "refunds" }],
    ["refund", { orderId: "A-17", amount: 40 }],
    ["refund", { orderId: "B-99", amount: 500 }],
    ["deleteFile", { path: "/etc/passwd" }],
    ["deleteFile", { path: "drafts/old-reply.txt" }],
  ] as const) {
    try {
      const result = await executor.callTool({ name, arguments: args }, ctx);
      say(`${name}(${summary(args)}) → ${result.status}${result.status === "ok" ? ` ${summary(result.value)}` : ""}`);
    } catch (error) {
      const outcome = error instanceof PermissionError ? "blocked by the TOOL_PRE guard" : "failed";
      say(`${name}(${summary(args)}) → ${outcome}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  let streamed = "";
  for await (const piece of model.stream({ messages: [{ role: "user", content: "Confirm the refund." }] })) streamed += String(piece);
  say(`model (streamed) → ${streamed}`);
  await bus.emit(HookPoint.SESSION_END, { sessionId: session.id, status: "completed" });
  return { signals: session.observer.byType(Signal), lines };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { signals } = await runAgent();
  const hookSignals = signals.filter((s): s is HookSignal => s instanceof HookSignal);
  console.log(`\nThe session observer recorded ${signals.length} signals; the hook points among them:`);
  for (const signal of hookSignals) console.log(`  ${String(signal.point).padEnd(14)} ${summary(signal.payload)}`);
  await closeEmbeddedSignalStores();
}
