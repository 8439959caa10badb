import { describe, expect, it } from "vitest";
import {
  ApprovalDenied,
  BudgetExceeded,
  GuardrailBlocked,
  Hook,
  LLMInvocation,
  NodeInvocation,
  RunLimitExceeded,
  ShortCircuit,
  ToolInvocation,
  ToolResult,
  createRunContext,
  runAfter,
  runBefore,
  runOnError,
  runOnLlmEnd,
  type HookPhases,
  type ToolSpec,
} from "@hooklens/runtime";
import { z } from "zod";
import { invocationOf, specOf, useCapturedLogs } from "./support.js";

const captured = useCapturedLogs();
const ctx = createRunContext({ runId: "r1", threadId: "t1" });
const search = specOf("search");
const toolInv = (args: Record<string, unknown> = { query: "returns" }) => invocationOf(search, args, ctx);
const okResult = (value: unknown) => new ToolResult({ callId: "c1", tool: "search", status: "ok", value });

/** A hook made of phases, named for the dispatch captured.logs. */
function hookOf(name: string, phases: HookPhases): Hook {
  return Object.assign(new Hook(), { name }, phases);
}

describe("runBefore", () => {
  it("runs hooks in registration order", async () => {
    const order: string[] = [];
    const hooks = ["a", "b", "c"].map((n) => hookOf(n, { beforeTool: () => void order.push(n) }));
    expect(await runBefore(hooks, "beforeTool", toolInv())).toBeNull();
    expect(order).toEqual(["a", "b", "c"]);
  });

  it("the first ShortCircuit wins and later hooks do not run", async () => {
    const order: string[] = [];
    const hooks = [
      hookOf("a", { beforeTool: () => void order.push("a") }),
      hookOf("b", { beforeTool: async () => (order.push("b"), new ShortCircuit("from b")) }),
      hookOf("c", { beforeTool: () => (order.push("c"), new ShortCircuit("from c")) }),
    ];
    const out = await runBefore(hooks, "beforeTool", toolInv());
    expect(out?.value).toBe("from b");
    expect(order).toEqual(["a", "b"]);
  });

  it("skips hooks that do not implement the phase", async () => {
    const seen: string[] = [];
    const hooks = [
      hookOf("llm-only", { beforeLlm: () => void seen.push("llm") }),
      hookOf("tool", { beforeTool: () => void seen.push("tool") }),
    ];
    await runBefore(hooks, "beforeTool", toolInv());
    expect(seen).toEqual(["tool"]);
  });

  it("ignores return values that are not a ShortCircuit", async () => {
    const hooks = [hookOf("a", { beforeTool: () => ({ value: "not a short circuit" }) as never })];
    expect(await runBefore(hooks, "beforeTool", toolInv())).toBeNull();
  });

  it("works for the llm and node phases with their invocations", async () => {
    const llm = new LLMInvocation({ messages: [] }, "scripted", "m1", ctx);
    const node = new NodeInvocation("flow", "plan", { x: 1 }, ctx);
    const got: unknown[] = [];
    const hooks = [hookOf("a", { beforeLlm: (inv) => void got.push(inv), beforeNode: (inv) => void got.push(inv) })];
    await runBefore(hooks, "beforeLlm", llm);
    await runBefore(hooks, "beforeNode", node);
    expect(got).toEqual([llm, node]);
  });
});

describe("runAfter", () => {
  it("a hook may replace the result and the next hook sees the replacement", async () => {
    const seen: unknown[] = [];
    const hooks = [
      hookOf("a", { afterTool: (_inv, r) => (seen.push(r.value), okResult("replaced")) }),
      hookOf("b", { afterTool: (_inv, r) => void seen.push(r.value) }),
    ];
    const out = await runAfter(hooks, "afterTool", toolInv(), okResult("original"));
    expect(out.value).toBe("replaced");
    expect(seen).toEqual(["original", "replaced"]);
  });

  it("returning null or undefined keeps the result", async () => {
    const original = okResult("kept");
    const hooks = [hookOf("a", { afterTool: () => null }), hookOf("b", { afterTool: () => undefined })];
    expect(await runAfter(hooks, "afterTool", toolInv(), original)).toBe(original);
  });

  it("a ShortCircuit returned after the call replaces the result with its value", async () => {
    const replacement = okResult("sc");
    const hooks = [hookOf("a", { afterTool: () => new ShortCircuit(replacement) as never })];
    expect(await runAfter(hooks, "afterTool", toolInv(), okResult("x"))).toBe(replacement);
  });
});

describe("runOnError", () => {
  it("returns null when no hook recovers, so the caller re-raises", async () => {
    const hooks = [hookOf("a", { onToolError: () => undefined })];
    expect(await runOnError(hooks, "onToolError", toolInv(), new Error("boom"))).toBeNull();
  });

  it("recovers only with a ShortCircuit; other returns are ignored", async () => {
    const hooks = [
      hookOf("plain", { onToolError: () => "not a recovery" as never }),
      hookOf("rescue", { onToolError: () => new ShortCircuit("fallback") }),
      hookOf("late", { onToolError: () => new ShortCircuit("too late") }),
    ];
    expect((await runOnError(hooks, "onToolError", toolInv(), new Error("boom")))?.value).toBe("fallback");
  });

  it("each hook receives the original error", async () => {
    const original = new TypeError("bad");
    let seen: unknown;
    await runOnError([hookOf("a", { onToolError: (_inv, e) => void (seen = e) })], "onToolError", toolInv(), original);
    expect(seen).toBe(original);
  });
});

describe("runOnLlmEnd", () => {
  it("calls every hook with the invocation and the billed entry", async () => {
    const inv = new LLMInvocation({ messages: [] }, "p", "m", ctx);
    const seen: unknown[] = [];
    await runOnLlmEnd([hookOf("a", { onLlmEnd: (i, billed) => void seen.push(i, billed) })], inv, null);
    expect(seen).toEqual([inv, null]);
  });
});

describe("a hook that throws", () => {
  class HookBug extends Error {}

  it("propagates the error unchanged (same object)", async () => {
    const bug = new HookBug("secret detail");
    const hooks = [
      hookOf("buggy", {
        beforeTool: () => {
          throw bug;
        },
      }),
    ];
    await expect(runBefore(hooks, "beforeTool", toolInv())).rejects.toBe(bug);
  });

  it("stops the phase: later hooks do not run", async () => {
    let ran = false;
    const hooks = [
      hookOf("buggy", {
        beforeTool: async () => {
          throw new HookBug("x");
        },
      }),
      hookOf("next", { beforeTool: () => void (ran = true) }),
    ];
    await expect(runBefore(hooks, "beforeTool", toolInv())).rejects.toThrow(HookBug);
    expect(ran).toBe(false);
  });

  it("a hook bug is logged at ERROR with its type only, never its message", async () => {
    const hooks = [
      hookOf("buggy", {
        afterTool: () => {
          throw new HookBug("api_key=sk-123");
        },
      }),
    ];
    await expect(runAfter(hooks, "afterTool", toolInv(), okResult(1))).rejects.toThrow(HookBug);
    expect(captured.logs).toHaveLength(1);
    expect(captured.logs[0]!.level).toBe("error");
    expect(captured.logs[0]!.fields).toEqual({ hook: "buggy", phase: "afterTool", errorKind: "HookBug" });
    expect(JSON.stringify(captured.logs[0])).not.toContain("sk-123");
  });

  it("an async hook bug is logged the same way", async () => {
    const hooks = [
      hookOf("buggy", {
        onToolError: async () => {
          throw new RangeError("nope");
        },
      }),
    ];
    await expect(runOnError(hooks, "onToolError", toolInv(), new Error("orig"))).rejects.toThrow(RangeError);
    expect(captured.logs.map((l) => [l.level, l.fields.errorKind])).toEqual([["error", "RangeError"]]);
  });

  it("control flow (an abort) is not logged at all", async () => {
    const controller = new AbortController();
    controller.abort();
    const aborted = createRunContext({ runId: "r2", signal: controller.signal });
    const inv = new ToolInvocation(search, { id: "c", name: "search", arguments: {} }, aborted);
    const hooks = [
      hookOf("waiter", {
        beforeTool: () => {
          throw controller.signal.reason;
        },
      }),
    ];
    await expect(runBefore(hooks, "beforeTool", inv)).rejects.toBe(controller.signal.reason);
    const abortError = Object.assign(new Error("aborted"), { name: "AbortError" });
    await expect(
      runBefore(
        [
          hookOf("w2", {
            beforeTool: () => {
              throw abortError;
            },
          }),
        ],
        "beforeTool",
        toolInv(),
      ),
    ).rejects.toBe(abortError);
    expect(captured.logs).toEqual([]);
  });

  it.each([
    ["BudgetExceeded", new BudgetExceeded(0.5, 0.6, { scope: "run", runId: "r1" })],
    ["GuardrailBlocked", new GuardrailBlocked("no", { tool: "search", stage: "args" })],
    ["ApprovalDenied", new ApprovalDenied("search", "no")],
    ["RunLimitExceeded", new RunLimitExceeded("tool calls", 3, "r1")],
  ])("a policy outcome (%s) is one DEBUG line and propagates unchanged", async (kind, outcome) => {
    const hooks = [
      hookOf("policy", {
        beforeTool: () => {
          throw outcome;
        },
      }),
    ];
    await expect(runBefore(hooks, "beforeTool", toolInv())).rejects.toBe(outcome);
    expect(captured.logs).toEqual([
      { level: "debug", msg: expect.stringContaining(kind), fields: { hook: "policy", phase: "beforeTool", errorKind: kind } },
    ]);
  });
});

describe("ToolInvocation", () => {
  const spec: ToolSpec = {
    name: "search",
    kind: "search",
    confirm: false,
    cacheable: false,
    schema: z.object({ query: z.string(), maxResults: z.number().int().default(5) }),
  };

  it("carries validated arguments under the names the model uses", () => {
    const inv = new ToolInvocation(spec, { id: "c", name: "search", arguments: { query: "returns" } }, ctx);
    expect(inv.call.arguments).toEqual({ query: "returns", maxResults: 5 });
    expect(inv.spec).toBe(spec);
    expect(inv.ctx).toBe(ctx);
  });

  it("rejects arguments that do not match the schema", () => {
    expect(() => new ToolInvocation(spec, { id: "c", name: "search", arguments: { query: 3 } }, ctx)).toThrow(/query/);
  });

  it("LLMInvocation and NodeInvocation keep what they are given", () => {
    const llm = new LLMInvocation({ messages: [{ role: "user", content: "hi" }] }, "openai", "gpt", ctx);
    expect([llm.provider, llm.model, llm.ctx]).toEqual(["openai", "gpt", ctx]);
    const node = new NodeInvocation("support", "classify", { topic: "x" }, ctx);
    expect([node.flow, node.node, node.state]).toEqual(["support", "classify", { topic: "x" }]);
  });
});

describe("Hook", () => {
  it("defaults its name to the class name and implements no phase", () => {
    class CachedAnswers extends Hook {}
    const hook = new CachedAnswers();
    expect(hook.name).toBe("CachedAnswers");
    expect(hook.beforeTool).toBeUndefined();
  });
});
