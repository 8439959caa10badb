import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  ApprovalDenied,
  BudgetExceeded,
  BudgetHook,
  Executor,
  GuardrailBlocked,
  GuardrailHook,
  Hook,
  InvalidValueError,
  Ledger,
  LoggingHook,
  MemoryToolCache,
  Rate,
  RateLimitHook,
  RunLimitExceeded,
  ShortCircuit,
  ToolResult,
  ToolUsageError,
  createRunContext,
  type HookPhases,
  type LLMResponse,
  type LedgerEntry,
} from "@hooklens/runtime";
import { branchTools, completion, scriptedModel, useCapturedLogs } from "./support.js";

const captured = useCapturedLogs();

const PHASES = [
  "beforeTool",
  "afterTool",
  "onToolError",
  "beforeLlm",
  "afterLlm",
  "onLlmError",
  "onLlmEnd",
  "beforeNode",
  "afterNode",
  "onNodeError",
] as const;

/** A hook that records `<name>.<phase>` for every phase it sees. */
function recorder(name: string, trail: string[], overrides: HookPhases = {}): Hook {
  const hook = Object.assign(new Hook(), { name });
  for (const phase of PHASES) {
    const override = overrides[phase] as ((...args: unknown[]) => unknown) | undefined;
    Object.assign(hook, {
      [phase]: (...args: unknown[]) => {
        trail.push(`${name}.${phase}`);
        return override?.(...args);
      },
    });
  }
  return hook;
}

const reply = (content: string, usage: LLMResponse["usage"] = { inputTokens: 10, outputTokens: 5 }): LLMResponse => ({
  content,
  finishReason: "stop",
  usage,
});
/** search, explode (throws RangeError) and delete_file (a confirm tool of kind fs), as real Tools on a Branch. */
const toolset = () =>
  branchTools(
    { name: "search", fn: (args) => [`found ${String(args["query"])}`], schema: z.object({ query: z.string() }) },
    {
      name: "explode",
      fn: () => {
        throw new RangeError("kaboom");
      },
    },
    {
      name: "delete_file",
      fn: (args) => `deleted ${String(args["path"])}`,
      schema: z.object({ path: z.string() }),
      meta: { confirm: true, kind: "fs" },
    },
  );
const tools = () => toolset().tools;

describe("Executor tool calls", () => {
  it("runs before, the call, then after, calling hooks in registration order", async () => {
    const trail: string[] = [];
    const { tools: backend, ran } = toolset();
    const executor = new Executor(backend, { hooks: [recorder("a", trail), recorder("b", trail)] });
    const result = await executor.callTool({ name: "search", arguments: { query: "returns" } }, executor.context());
    expect(trail).toEqual(["a.beforeTool", "b.beforeTool", "a.afterTool", "b.afterTool"]);
    expect(result).toBeInstanceOf(ToolResult);
    expect(result).toMatchObject({ status: "ok", value: ["found returns"], attempts: 1, cached: false, tool: "search" });
    expect(ran).toHaveLength(1);
  });

  it("hooks see validated arguments and the call id given by the model", async () => {
    let seen: unknown;
    const executor = new Executor(tools(), {
      hooks: [Object.assign(new Hook(), { beforeTool: (inv: { call: unknown }) => void (seen = inv.call) })],
    });
    await executor.callTool({ name: "search", arguments: { query: "q" }, id: "call_abc" }, executor.context());
    expect(seen).toEqual({ id: "call_abc", name: "search", arguments: { query: "q" } });
  });

  it("a ShortCircuit in beforeTool skips the call; its value becomes the result and after hooks still run", async () => {
    const trail: string[] = [];
    const { tools: backend, ran } = toolset();
    const executor = new Executor(backend, {
      hooks: [recorder("cache", trail, { beforeTool: () => new ShortCircuit(["returns: free within 30 days"]) }), recorder("late", trail)],
    });
    const result = await executor.callTool({ name: "search", arguments: { query: "returns" } }, executor.context());
    expect(result).toMatchObject({ status: "ok", value: ["returns: free within 30 days"], attempts: 0 });
    expect(ran).toEqual([]);
    expect(trail).toEqual(["cache.beforeTool", "cache.afterTool", "late.afterTool"]);
  });

  it("an afterTool hook may replace the result", async () => {
    const executor = new Executor(tools(), {
      hooks: [Object.assign(new Hook(), { afterTool: (_inv: unknown, r: ToolResult) => r.with({ value: "rewritten" }) })],
    });
    expect((await executor.callTool({ name: "search", arguments: { query: "q" } }, executor.context())).value).toBe("rewritten");
  });

  it("a failing call goes to onToolError; without a recovery the original error propagates and after hooks do not run", async () => {
    const trail: string[] = [];
    const executor = new Executor(tools(), { hooks: [recorder("a", trail)] });
    const error = await executor.callTool({ name: "explode" }, executor.context()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RangeError);
    expect((error as Error).message).toBe("kaboom");
    expect(trail).toEqual(["a.beforeTool", "a.onToolError"]);
  });

  it("onToolError recovers with a ShortCircuit, whose value becomes an ok result", async () => {
    const trail: string[] = [];
    const executor = new Executor(tools(), { hooks: [recorder("rescue", trail, { onToolError: () => new ShortCircuit("fallback") })] });
    const result = await executor.callTool({ name: "explode" }, executor.context());
    expect(result).toMatchObject({ status: "ok", value: "fallback", attempts: 0 });
    expect(trail).toEqual(["rescue.beforeTool", "rescue.onToolError"]);
  });

  it("an error thrown by beforeTool propagates without onToolError and without running the call", async () => {
    const trail: string[] = [];
    const { tools: backend, ran } = toolset();
    const stop = new BudgetExceeded(1, 2, { scope: "run", runId: "r" });
    const executor = new Executor(backend, {
      hooks: [
        recorder("gate", trail, {
          beforeTool: () => {
            throw stop;
          },
        }),
      ],
    });
    await expect(executor.callTool({ name: "search", arguments: { query: "q" } }, executor.context())).rejects.toBe(stop);
    expect(trail).toEqual(["gate.beforeTool"]);
    expect(ran).toEqual([]);
  });

  it("an error thrown by afterTool propagates (a result guardrail blocks the output)", async () => {
    const executor = new Executor(tools(), {
      hooks: [new GuardrailHook((stage) => stage !== "result" || "no results today", { on: ["result"] })],
    });
    await expect(executor.callTool({ name: "search", arguments: { query: "q" } }, executor.context())).rejects.toBeInstanceOf(
      GuardrailBlocked,
    );
  });

  it("rejects an unregistered tool with ToolUsageError before any hook runs", async () => {
    const trail: string[] = [];
    const executor = new Executor(tools(), { hooks: [recorder("a", trail)] });
    await expect(executor.callTool({ name: "nope" }, executor.context())).rejects.toThrow(ToolUsageError);
    expect(trail).toEqual([]);
  });

  it("rejects arguments that do not match the tool's schema before any hook runs", async () => {
    const trail: string[] = [];
    const executor = new Executor(tools(), { hooks: [recorder("a", trail)] });
    await expect(executor.callTool({ name: "search", arguments: { query: 1 } }, executor.context())).rejects.toThrow(InvalidValueError);
    expect(trail).toEqual([]);
  });
});

describe("Executor approval", () => {
  it("asks the approval callback for confirm tools only, after beforeTool", async () => {
    const trail: string[] = [];
    const executor = new Executor(tools(), {
      hooks: [recorder("a", trail)],
      approval: (inv) => (trail.push(`approve ${inv.spec.name}`), true),
    });
    await executor.callTool({ name: "search", arguments: { query: "q" } }, executor.context());
    await executor.callTool({ name: "delete_file", arguments: { path: "/tmp/x" } }, executor.context());
    expect(trail).toEqual(["a.beforeTool", "a.afterTool", "a.beforeTool", "approve delete_file", "a.afterTool"]);
  });

  it("a refusal raises ApprovalDenied through onToolError, which may recover", async () => {
    const trail: string[] = [];
    const { tools: backend, ran } = toolset();
    const executor = new Executor(backend, { hooks: [recorder("a", trail)], approval: () => ({ deny: "not today" }) });
    const error = await executor.callTool({ name: "delete_file", arguments: { path: "/x" } }, executor.context()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApprovalDenied);
    expect((error as Error).message).toContain("not today");
    expect(trail).toEqual(["a.beforeTool", "a.onToolError"]);
    expect(ran).toEqual([]);
    const rescued = new Executor(backend, {
      approval: () => false,
      hooks: [recorder("r", [], { onToolError: () => new ShortCircuit("skipped") })],
    });
    expect((await rescued.callTool({ name: "delete_file", arguments: { path: "/x" } }, rescued.context())).value).toBe("skipped");
  });

  it("a refusal is logged once at WARNING by the executor", async () => {
    const executor = new Executor(tools(), { approval: () => false });
    await executor.callTool({ name: "delete_file", arguments: { path: "/x" } }, executor.context()).catch(() => undefined);
    expect(captured.logs.map((l) => l.level)).toEqual(["warn"]);
  });

  it("without an approval callback a confirm tool is refused", async () => {
    const executor = new Executor(tools());
    await expect(executor.callTool({ name: "delete_file", arguments: { path: "/x" } }, executor.context())).rejects.toThrow(
      /no approval callback/,
    );
  });

  it("edited arguments run beforeTool again on the edited call, and the tool runs with them", async () => {
    const seen: unknown[] = [];
    const { tools: backend, ran } = toolset();
    const executor = new Executor(backend, {
      hooks: [Object.assign(new Hook(), { beforeTool: (inv: { call: { arguments: unknown } }) => void seen.push(inv.call.arguments) })],
      approval: () => ({ arguments: { path: "/tmp/safe" } }),
    });
    const result = await executor.callTool({ name: "delete_file", arguments: { path: "/etc" } }, executor.context());
    expect(seen).toEqual([{ path: "/etc" }, { path: "/tmp/safe" }]);
    expect(ran.map((r) => r.args)).toEqual([{ path: "/tmp/safe" }]);
    expect(result.value).toBe("deleted /tmp/safe");
  });

  it("a guardrail checks the edited arguments, so what really runs is checked", async () => {
    const { tools: backend, ran } = toolset();
    const executor = new Executor(backend, {
      hooks: [new GuardrailHook((_stage, payload) => !JSON.stringify(payload).includes("password") || "looks like a password")],
      approval: () => ({ arguments: { path: "/home/me/password.txt" } }),
    });
    await expect(executor.callTool({ name: "delete_file", arguments: { path: "/tmp/x" } }, executor.context())).rejects.toMatchObject({
      reason: "looks like a password",
    });
    expect(ran).toEqual([]);
  });

  it("side effects of beforeTool happen twice: a custom counter counts two", async () => {
    let count = 0;
    const executor = new Executor(tools(), {
      hooks: [Object.assign(new Hook(), { beforeTool: () => void count++ })],
      approval: () => ({ arguments: { path: "/tmp/y" } }),
    });
    await executor.callTool({ name: "delete_file", arguments: { path: "/tmp/x" } }, executor.context());
    expect(count).toBe(2);
  });

  it("side effects of beforeTool happen twice: LoggingHook logs a second tool.start", async () => {
    const executor = new Executor(tools(), { hooks: [new LoggingHook()], approval: () => ({ arguments: { path: "/tmp/y" } }) });
    await executor.callTool({ name: "delete_file", arguments: { path: "/tmp/x" } }, executor.context());
    expect(captured.logs.map((l) => l.fields["event"])).toEqual(["tool.start", "tool.start", "tool.finish"]);
  });

  it("side effects of beforeTool happen twice: RateLimitHook books a second slot", async () => {
    const sleeps: number[] = [];
    const limiter = new RateLimitHook({ fs: new Rate(1, 1) }, { clock: () => 0, sleep: async (s) => void sleeps.push(s) });
    const executor = new Executor(tools(), { hooks: [limiter], approval: () => ({ arguments: { path: "/tmp/y" } }) });
    await executor.callTool({ name: "delete_file", arguments: { path: "/tmp/x" } }, executor.context());
    expect(sleeps).toEqual([1]);
  });

  it("a ShortCircuit on the second beforeTool skips the call", async () => {
    const { tools: backend, ran } = toolset();
    let calls = 0;
    const executor = new Executor(backend, {
      hooks: [Object.assign(new Hook(), { beforeTool: () => (++calls === 2 ? new ShortCircuit("second look says no") : null) })],
      approval: () => ({ arguments: { path: "/tmp/y" } }),
    });
    expect((await executor.callTool({ name: "delete_file", arguments: { path: "/tmp/x" } }, executor.context())).value).toBe(
      "second look says no",
    );
    expect(ran).toEqual([]);
  });

  it("edited arguments that fail validation go to onToolError", async () => {
    const trail: string[] = [];
    const executor = new Executor(tools(), { hooks: [recorder("a", trail)], approval: () => ({ arguments: { path: 42 } }) });
    await expect(executor.callTool({ name: "delete_file", arguments: { path: "/x" } }, executor.context())).rejects.toThrow(
      InvalidValueError,
    );
    expect(trail).toEqual(["a.beforeTool", "a.onToolError"]);
  });
});

describe("Executor cache", () => {
  it("serves a cacheable tool's second identical call from the cache (cached, no attempt)", async () => {
    const { tools: backend, ran } = branchTools({ name: "lookup", fn: (a) => `value of ${String(a["k"])}`, meta: { cacheable: true } });
    const executor = new Executor(backend, { cache: new MemoryToolCache() });
    const ctx = executor.context();
    const first = await executor.callTool({ name: "lookup", arguments: { k: 1 } }, ctx);
    const second = await executor.callTool({ name: "lookup", arguments: { k: 1 } }, ctx);
    expect([first.cached, second.cached, second.attempts, second.value]).toEqual([false, true, 0, "value of 1"]);
    expect(ran).toHaveLength(1);
  });

  it("does not cache tools that are not marked cacheable", async () => {
    const { tools: backend, ran } = branchTools({ name: "now", fn: () => Date.now() });
    const executor = new Executor(backend, { cache: new MemoryToolCache() });
    await executor.callTool({ name: "now" }, executor.context());
    await executor.callTool({ name: "now" }, executor.context());
    expect(ran).toHaveLength(2);
  });

  it("keys the cache by tool and arguments regardless of key order", async () => {
    const cache = new MemoryToolCache();
    const { tools: backend, ran } = branchTools({ name: "lookup", fn: () => "v", meta: { cacheable: true } });
    const executor = new Executor(backend, { cache });
    await executor.callTool({ name: "lookup", arguments: { a: 1, b: 2 } }, executor.context());
    await executor.callTool({ name: "lookup", arguments: { b: 2, a: 1 } }, executor.context());
    await executor.callTool({ name: "lookup", arguments: { a: 2, b: 2 } }, executor.context());
    expect(ran).toHaveLength(2);
    expect(cache.size).toBe(2);
  });
});

describe("Executor model calls", () => {
  it("runs beforeLlm, the model, afterLlm and then onLlmEnd once with the billed ledger entry", async () => {
    const trail: string[] = [];
    const billedSeen: (LedgerEntry | null)[] = [];
    const ledger = new Ledger({ prices: { "scripted-model": { inputPerMillion: 1_000_000, outputPerMillion: 2_000_000 } } });
    const { model } = scriptedModel([completion("hi")]);
    const executor = new Executor(tools(), {
      hooks: [recorder("a", trail, { onLlmEnd: (_inv, billed) => void billedSeen.push(billed as LedgerEntry) })],
      ledger,
      model,
    });
    const ctx = executor.context({ runId: "run-7", threadId: "t" });
    const response = await executor.callLlm({ messages: [{ role: "user", content: "hello" }] }, ctx);
    expect(response.content).toBe("hi");
    expect(trail).toEqual(["a.beforeLlm", "a.afterLlm", "a.onLlmEnd"]);
    expect(billedSeen).toEqual([
      expect.objectContaining({
        runId: "run-7",
        threadId: "t",
        provider: "scripted",
        model: "scripted-model",
        inputTokens: 10,
        outputTokens: 5,
        costUsd: 20,
      }),
    ]);
    expect(ledger.totalUsd("run-7")).toBe(20);
  });

  it("a failing model call goes to onLlmError, then onLlmEnd gets null, and the error propagates", async () => {
    const trail: string[] = [];
    const billedSeen: unknown[] = [];
    const failure = new Error("provider down");
    const executor = new Executor(tools(), {
      hooks: [recorder("a", trail, { onLlmEnd: (_inv, billed) => void billedSeen.push(billed) })],
      ledger: new Ledger(),
      model: scriptedModel([{ error: failure }]).model,
    });
    await expect(executor.callLlm({ messages: [] }, executor.context())).rejects.toBe(failure);
    expect(trail).toEqual(["a.beforeLlm", "a.onLlmError", "a.onLlmEnd"]);
    expect(billedSeen).toEqual([null]);
  });

  it("onLlmError recovers with a ShortCircuit (a string becomes the content)", async () => {
    const executor = new Executor(tools(), {
      hooks: [recorder("r", [], { onLlmError: () => new ShortCircuit("sorry, offline") })],
      model: scriptedModel([{ error: new Error("x") }]).model,
    });
    expect(await executor.callLlm({ messages: [] }, executor.context())).toEqual({
      content: "sorry, offline",
      finishReason: null,
      usage: null,
    });
  });

  it("a ShortCircuit in beforeLlm skips the model, bills nothing and still ends the call once", async () => {
    const trail: string[] = [];
    const { model, endpoint } = scriptedModel([completion("unused")]);
    const ledger = new Ledger();
    const executor = new Executor(tools(), {
      hooks: [recorder("c", trail, { beforeLlm: () => new ShortCircuit(reply("cached", null)) })],
      model,
      ledger,
    });
    expect((await executor.callLlm({ messages: [] }, executor.context())).content).toBe("cached");
    expect(endpoint.callCount).toBe(0);
    expect(ledger.entries()).toEqual([]);
    expect(trail).toEqual(["c.beforeLlm", "c.afterLlm", "c.onLlmEnd"]);
  });

  it("onLlmEnd runs even when beforeLlm stops the call", async () => {
    const ends: unknown[] = [];
    const ledger = new Ledger();
    ledger.record({ runId: "r", provider: "scripted", model: "scripted-model", inputTokens: 1, outputTokens: 1, costUsd: 1 });
    const executor = new Executor(tools(), {
      hooks: [new BudgetHook(0.5), Object.assign(new Hook(), { onLlmEnd: (_i: unknown, billed: unknown) => void ends.push(billed) })],
      model: scriptedModel([completion("x")]).model,
      ledger,
    });
    await expect(executor.callLlm({ messages: [] }, executor.context({ runId: "r" }))).rejects.toBeInstanceOf(BudgetExceeded);
    expect(ends).toEqual([null]);
  });

  it("an onLlmEnd error propagates after a successful call, but never hides the call's own error", async () => {
    class EndBug extends Error {}
    const endBug = Object.assign(new Hook(), {
      name: "end-bug",
      onLlmEnd: () => {
        throw new EndBug();
      },
    });
    const ok = new Executor(tools(), { hooks: [endBug], model: scriptedModel([completion("x")]).model });
    await expect(ok.callLlm({ messages: [] }, ok.context())).rejects.toBeInstanceOf(EndBug);
    const failure = new Error("provider down");
    const failing = new Executor(tools(), { hooks: [endBug], model: scriptedModel([{ error: failure }]).model });
    await expect(failing.callLlm({ messages: [] }, failing.context())).rejects.toBe(failure);
    expect(captured.logs.filter((l) => l.level === "error").map((l) => l.fields["errorKind"])).toEqual(["EndBug", "EndBug"]);
  });

  it("a call without usage is billed with unknown cost", async () => {
    let billed: LedgerEntry | null = null;
    const executor = new Executor(tools(), {
      hooks: [Object.assign(new Hook(), { onLlmEnd: (_i: unknown, b: LedgerEntry | null) => void (billed = b) })],
      model: scriptedModel([completion("x", null)]).model,
      ledger: new Ledger({ prices: { "scripted-model": { inputPerMillion: 1, outputPerMillion: 1 } } }),
    });
    await executor.callLlm({ messages: [] }, executor.context());
    expect(billed).toMatchObject({ inputTokens: null, outputTokens: null, costUsd: null });
  });

  it("without a ledger nothing is billed and onLlmEnd gets null", async () => {
    const ends: unknown[] = [];
    const executor = new Executor(tools(), {
      hooks: [Object.assign(new Hook(), { onLlmEnd: (_i: unknown, b: unknown) => void ends.push(b) })],
      model: scriptedModel([completion("x")]).model,
    });
    await executor.callLlm({ messages: [] }, executor.context());
    expect(ends).toEqual([null]);
  });

  it("needs a model", async () => {
    const executor = new Executor(tools());
    await expect(executor.callLlm({ messages: [] }, executor.context())).rejects.toThrow(InvalidValueError);
  });

  it("a per-call model overrides the executor's", async () => {
    const other = scriptedModel([completion("from other")]).model;
    const executor = new Executor(tools(), { model: scriptedModel([completion("default")]).model });
    expect((await executor.callLlm({ messages: [] }, executor.context(), { model: other })).content).toBe("from other");
  });
});

describe("Executor flow nodes", () => {
  const classify = { name: "classify", run: (state: { text: string }) => ({ topic: state.text.includes("refund") ? "billing" : "other" }) };

  it("runs beforeNode, the node, afterNode and returns the update", async () => {
    const trail: string[] = [];
    const executor = new Executor(tools(), { hooks: [recorder("a", trail)] });
    expect(await executor.runNode("support", classify, { text: "refund please" }, executor.context())).toEqual({ topic: "billing" });
    expect(trail).toEqual(["a.beforeNode", "a.afterNode"]);
  });

  it("hooks see the flow, node name and state", async () => {
    let seen: unknown;
    const executor = new Executor(tools(), { hooks: [Object.assign(new Hook(), { beforeNode: (inv: object) => void (seen = inv) })] });
    await executor.runNode("support", classify, { text: "hi" }, executor.context());
    expect(seen).toMatchObject({ flow: "support", node: "classify", state: { text: "hi" } });
  });

  it("a failing node goes to onNodeError, which may recover with a ShortCircuit", async () => {
    const broken = {
      name: "broken",
      run: () => {
        throw new Error("bad state");
      },
    };
    const trail: string[] = [];
    const rescue = new Executor(tools(), { hooks: [recorder("r", trail, { onNodeError: () => new ShortCircuit({ topic: "unknown" }) })] });
    expect(await rescue.runNode("f", broken, {}, rescue.context())).toEqual({ topic: "unknown" });
    expect(trail).toEqual(["r.beforeNode", "r.onNodeError"]);
    const plain = new Executor(tools());
    await expect(plain.runNode("f", broken, {}, plain.context())).rejects.toThrow("bad state");
  });

  it("a ShortCircuit in beforeNode skips the node", async () => {
    let ran = false;
    const executor = new Executor(tools(), {
      hooks: [Object.assign(new Hook(), { beforeNode: () => new ShortCircuit({ skipped: true }) })],
    });
    expect(await executor.runNode("f", { name: "n", run: () => void (ran = true) }, {}, executor.context())).toEqual({ skipped: true });
    expect(ran).toBe(false);
  });

  it("LoggingHook logs the keys the node updated", async () => {
    const executor = new Executor(tools(), { hooks: [new LoggingHook()] });
    await executor.runNode("support", classify, { text: "refund" }, executor.context({ runId: "r" }));
    expect(captured.logs.map((l) => (l.fields["fields"] as Record<string, unknown>)["updated"])).toEqual([undefined, ["topic"]]);
  });
});

describe("Executor run context", () => {
  it("context() carries the executor's ledger and event listener", async () => {
    const ledger = new Ledger();
    const events: string[] = [];
    const executor = new Executor(tools(), { ledger, onEvent: (e) => void events.push(e) });
    const ctx = executor.context({ runId: "r", threadId: "t" });
    expect([ctx.runId, ctx.threadId, ctx.ledger]).toEqual(["r", "t", ledger]);
    ctx.emit("custom", {});
    expect(events).toEqual(["custom"]);
  });

  it("a context without a ledger gets the executor's, so BudgetHook reads what the executor bills", async () => {
    const ledger = new Ledger({ prices: { "scripted-model": { inputPerMillion: 100_000, outputPerMillion: 0 } } });
    const executor = new Executor(tools(), {
      hooks: [new BudgetHook(1)],
      ledger,
      model: scriptedModel([completion("x"), completion("y")]).model,
    });
    const ctx = createRunContext({ runId: "r" });
    await executor.callLlm({ messages: [] }, ctx); // 10 tokens × $0.1 = $1
    await expect(executor.callLlm({ messages: [] }, ctx)).rejects.toBeInstanceOf(BudgetExceeded);
  });

  it("limits calls per run with RunLimitExceeded before any hook runs", async () => {
    const trail: string[] = [];
    const executor = new Executor(tools(), { hooks: [recorder("a", trail)], limits: { toolCalls: 1 } });
    const ctx = executor.context();
    await executor.callTool({ name: "search", arguments: { query: "q" } }, ctx);
    await expect(executor.callTool({ name: "search", arguments: { query: "q" } }, ctx)).rejects.toBeInstanceOf(RunLimitExceeded);
    expect(trail).toEqual(["a.beforeTool", "a.afterTool"]);
    await expect(executor.callTool({ name: "search", arguments: { query: "q" } }, executor.context())).resolves.toBeDefined();
  });
});
