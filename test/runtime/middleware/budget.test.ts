import { describe, expect, it } from "vitest";
import {
  BudgetExceeded,
  BudgetHook,
  ConfigError,
  LLMInvocation,
  Ledger,
  createRunContext,
  runBefore,
  runOnLlmEnd,
  type RunContext,
} from "@hooklens/runtime";
import { invocationOf, specOf, useCapturedLogs } from "./support.js";

const captured = useCapturedLogs();
const toolInv = (ctx: RunContext) => invocationOf(specOf("search"), { query: "returns" }, ctx);
const llmInv = (ctx: RunContext) => new LLMInvocation({ messages: [] }, "openai", "gpt", ctx);

/** A ledger where run r1 (thread t1) spent 0.35, run r2 (thread t1) 0.25, run r3 (thread t2) 0.10. */
function spentLedger(): Ledger {
  const ledger = new Ledger();
  ledger.record({ runId: "r1", threadId: "t1", provider: "openai", model: "gpt", inputTokens: 1, outputTokens: 1, costUsd: 0.35 });
  ledger.record({ runId: "r2", threadId: "t1", provider: "openai", model: "gpt", inputTokens: 1, outputTokens: 1, costUsd: 0.25 });
  ledger.record({ runId: "r3", threadId: "t2", provider: "openai", model: "gpt", inputTokens: 1, outputTokens: 1, costUsd: 0.1 });
  return ledger;
}

describe("Ledger", () => {
  it("sums spend by run, by thread and over everything", () => {
    const ledger = spentLedger();
    expect(ledger.totalUsd("r1")).toBeCloseTo(0.35);
    expect(ledger.totalUsd(null, { threadId: "t1" })).toBeCloseTo(0.6);
    expect(ledger.totalUsd()).toBeCloseTo(0.7);
  });

  it("prices each call from token counts and the price table (USD per million tokens)", () => {
    const ledger = new Ledger({ prices: { "gpt-mini": { inputPerMillion: 0.15, outputPerMillion: 0.6 } } });
    const entry = ledger.record({ runId: "r", provider: "openai", model: "gpt-mini", inputTokens: 1_000_000, outputTokens: 500_000 });
    expect(entry).toMatchObject({
      runId: "r",
      threadId: "",
      provider: "openai",
      model: "gpt-mini",
      inputTokens: 1_000_000,
      outputTokens: 500_000,
    });
    expect(entry.costUsd).toBeCloseTo(0.45);
  });

  it("prefers a provider/model price over a model price", () => {
    const ledger = new Ledger({
      prices: { m: { inputPerMillion: 1, outputPerMillion: 1 }, "azure/m": { inputPerMillion: 2, outputPerMillion: 2 } },
    });
    expect(ledger.record({ runId: "r", provider: "azure", model: "m", inputTokens: 1e6, outputTokens: 0 }).costUsd).toBe(2);
    expect(ledger.record({ runId: "r", provider: "openai", model: "m", inputTokens: 1e6, outputTokens: 0 }).costUsd).toBe(1);
  });

  it("records a call without usage or without a price as unknown cost", () => {
    const ledger = new Ledger({ prices: { m: { inputPerMillion: 1, outputPerMillion: 1 } } });
    expect(ledger.record({ runId: "r", provider: "p", model: "m", inputTokens: null, outputTokens: null }).costUsd).toBeNull();
    expect(ledger.record({ runId: "r", provider: "p", model: "unknown", inputTokens: 5, outputTokens: 5 }).costUsd).toBeNull();
    expect(ledger.unpricedCount("r")).toBe(2);
    expect(ledger.totalUsd("r")).toBe(0);
  });

  it("finds only the table's own entries: a model named like an Object method has no price", () => {
    const ledger = new Ledger({ prices: { m: { inputPerMillion: 1, outputPerMillion: 1 } } });
    for (const model of ["constructor", "toString", "__proto__"]) {
      expect(ledger.record({ runId: "r", provider: "p", model, inputTokens: 5, outputTokens: 5 }).costUsd, model).toBeNull();
    }
  });

  it("rejects negative or non-finite amounts", () => {
    expect(() => new Ledger().record({ runId: "r", provider: "p", model: "m", inputTokens: -1, outputTokens: 0 })).toThrow(/non-negative/);
  });
});

describe("BudgetHook", () => {
  it("stops a thread that already spent over the cap, as in the documented example", async () => {
    const ctx = createRunContext({ runId: "r9", threadId: "t1", ledger: spentLedger() });
    const error = await runBefore([new BudgetHook(0.5, { scope: "thread" })], "beforeTool", toolInv(ctx)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BudgetExceeded);
    const exceeded = error as BudgetExceeded;
    expect([exceeded.scope, exceeded.limitUsd, Math.round(exceeded.spentUsd * 100) / 100, exceeded.runId]).toEqual([
      "thread",
      0.5,
      0.6,
      "r9",
    ]);
  });

  it("the run scope (default) reads only the run's spend", async () => {
    const ledger = spentLedger();
    const hook = new BudgetHook(0.3);
    await expect(runBefore([hook], "beforeTool", toolInv(createRunContext({ runId: "r1", ledger })))).rejects.toThrow(BudgetExceeded);
    await expect(runBefore([hook], "beforeTool", toolInv(createRunContext({ runId: "r2", ledger })))).resolves.toBeNull();
  });

  it("the global scope reads everything the ledger holds", async () => {
    const ctx = createRunContext({ runId: "new", threadId: "new", ledger: spentLedger() });
    await expect(runBefore([new BudgetHook(0.7, { scope: "global" })], "beforeTool", toolInv(ctx))).rejects.toMatchObject({
      scope: "global",
    });
    await expect(runBefore([new BudgetHook(0.71, { scope: "global" })], "beforeTool", toolInv(ctx))).resolves.toBeNull();
  });

  it("an empty thread id falls back to the run", async () => {
    const ctx = createRunContext({ runId: "r1", threadId: "", ledger: spentLedger() });
    const error = (await runBefore([new BudgetHook(0.3, { scope: "thread" })], "beforeTool", toolInv(ctx)).catch(
      (e: unknown) => e,
    )) as BudgetExceeded;
    expect([error.scope, error.spentUsd]).toEqual(["run", 0.35]);
    await expect(runBefore([new BudgetHook(0.4, { scope: "thread" })], "beforeTool", toolInv(ctx))).resolves.toBeNull();
  });

  it("stops at the limit, not only over it", async () => {
    const ctx = createRunContext({ runId: "r1", ledger: spentLedger() });
    await expect(runBefore([new BudgetHook(0.35)], "beforeTool", toolInv(ctx))).rejects.toThrow(BudgetExceeded);
  });

  it("checks before model calls too", async () => {
    const ctx = createRunContext({ runId: "r1", ledger: spentLedger() });
    await expect(runBefore([new BudgetHook(0.1)], "beforeLlm", llmInv(ctx))).rejects.toThrow(BudgetExceeded);
  });

  it("stop logs its own WARNING while dispatch adds only a DEBUG line", async () => {
    const ctx = createRunContext({ runId: "r1", ledger: spentLedger() });
    await runBefore([new BudgetHook(0.1)], "beforeTool", toolInv(ctx)).catch(() => undefined);
    expect(captured.logs.map((l) => l.level)).toEqual(["warn", "debug"]);
    expect(captured.logs[0]!.fields).toMatchObject({ hook: "budget", scope: "run", limitUsd: 0.1, spentUsd: 0.35, runId: "r1" });
  });

  it("warn logs once per run and emits budget.warning with limit, spend and scope", async () => {
    const events: [string, unknown][] = [];
    const ledger = spentLedger();
    const onEvent = (event: string, payload: unknown) => void events.push([event, payload]);
    const hook = new BudgetHook(0.1, { onExceed: "warn" });
    const r1 = createRunContext({ runId: "r1", ledger, onEvent });
    await expect(runBefore([hook], "beforeTool", toolInv(r1))).resolves.toBeNull();
    await runBefore([hook], "beforeLlm", llmInv(r1));
    await runBefore([hook], "beforeTool", toolInv(createRunContext({ runId: "r2", ledger, onEvent })));
    expect(events).toEqual([
      ["budget.warning", { limitUsd: 0.1, spentUsd: 0.35, scope: "run" }],
      ["budget.warning", { limitUsd: 0.1, spentUsd: 0.25, scope: "run" }],
    ]);
    expect(captured.logs.filter((l) => l.level === "warn")).toHaveLength(2);
  });

  it("warn mode warns when the model call that crosses the cap ends", async () => {
    const events: string[] = [];
    const ledger = new Ledger();
    const ctx = createRunContext({ runId: "r", ledger, onEvent: (e) => void events.push(e) });
    const hook = new BudgetHook(0.5, { onExceed: "warn" });
    const billed = ledger.record({ runId: "r", provider: "openai", model: "gpt", inputTokens: 1, outputTokens: 1, costUsd: 0.6 });
    await runOnLlmEnd([hook], llmInv(ctx), billed);
    expect(events).toEqual(["budget.warning"]);
  });

  it("below the cap it does nothing", async () => {
    const ctx = createRunContext({ runId: "r3", ledger: spentLedger() });
    await expect(runBefore([new BudgetHook(0.5)], "beforeTool", toolInv(ctx))).resolves.toBeNull();
    expect(captured.logs).toEqual([]);
  });

  it("without a ledger it does nothing and warns once", async () => {
    const hook = new BudgetHook(0);
    const ctx = createRunContext({ runId: "r" });
    await expect(runBefore([hook], "beforeTool", toolInv(ctx))).resolves.toBeNull();
    await expect(runBefore([hook], "beforeLlm", llmInv(ctx))).resolves.toBeNull();
    expect(captured.logs.map((l) => l.level)).toEqual(["warn"]);
  });

  it("fails closed: a call of unknown cost in scope stops the run even under the cap", async () => {
    const ledger = new Ledger();
    ledger.record({ runId: "r", provider: "p", model: "unpriced", inputTokens: 10, outputTokens: 10 });
    const error = (await runBefore([new BudgetHook(5)], "beforeTool", toolInv(createRunContext({ runId: "r", ledger }))).catch(
      (e: unknown) => e,
    )) as BudgetExceeded;
    expect(error).toBeInstanceOf(BudgetExceeded);
    expect(error.spentUsd).toBe(0);
    expect(error.message).toMatch(/no known cost/);
  });
});

describe("BudgetHook configuration", () => {
  it("config() exposes maxUsd, onExceed and scope", () => {
    expect(new BudgetHook(0.5, { scope: "thread" }).config()).toEqual({ maxUsd: 0.5, onExceed: "stop", scope: "thread" });
  });

  it("configSchema() is a zod schema of exactly those keys", () => {
    const schema = new BudgetHook(1).configSchema();
    expect(Object.keys(schema.shape)).toEqual(["maxUsd", "onExceed", "scope"]);
    expect(schema.safeParse({ maxUsd: 1, onExceed: "warn", scope: "global" }).success).toBe(true);
    expect(schema.safeParse({ maxUsd: 1, onExceed: "warn", scope: "global", extra: 1 }).success).toBe(false);
  });

  it("withConfig() returns a new hook with the changes and leaves the original alone", () => {
    const original = new BudgetHook(0.5);
    const changed = original.withConfig({ maxUsd: 2, onExceed: "warn" });
    expect(changed).not.toBe(original);
    expect(changed.config()).toEqual({ maxUsd: 2, onExceed: "warn", scope: "run" });
    expect(original.config()).toEqual({ maxUsd: 0.5, onExceed: "stop", scope: "run" });
  });

  it("withConfig() rejects unknown keys with ConfigError", () => {
    expect(() => new BudgetHook(1).withConfig({ maxUSD: 2 } as never)).toThrow(ConfigError);
  });

  it.each([{ maxUsd: -1 }, { maxUsd: Number.NaN }, { onExceed: "explode" }, { scope: "team" }])(
    "withConfig() rejects the bad value %o with ConfigError",
    (bad) => {
      expect(() => new BudgetHook(1).withConfig(bad as never)).toThrow(ConfigError);
    },
  );

  it("the constructor validates too", () => {
    expect(() => new BudgetHook(-0.01)).toThrow(ConfigError);
  });
});
