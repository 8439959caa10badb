import { describe, expect, it } from "vitest";
import {
  ConfigError,
  DEFAULT_BLOCK_REASON,
  GuardrailBlocked,
  GuardrailHook,
  LLMInvocation,
  ToolResult,
  ToolUsageError,
  createRunContext,
  runAfter,
  runBefore,
  type GuardrailStage,
  type LLMResponse,
} from "@hooklens/runtime";
import { invocationOf, specOf, useCapturedLogs } from "./support.js";

const captured = useCapturedLogs();
const ctx = createRunContext({ runId: "r1" });
const toolInv = (args: Record<string, unknown>) => invocationOf(specOf("search"), args, ctx);
const llmInv = new LLMInvocation({ messages: [{ role: "user", content: "hello" }] }, "openai", "gpt", ctx);
const response: LLMResponse = { content: "the password is hunter2", finishReason: "stop", usage: null };
const result = (status: "ok" | "error", value: unknown) => new ToolResult({ callId: "c1", tool: "search", status, value });

/** The documented secrets check, in TypeScript. */
function noSecrets(_stage: GuardrailStage, payload: unknown): boolean | string {
  return !JSON.stringify(payload).includes("password") || "looks like a password";
}

describe("GuardrailHook", () => {
  it("checks the validated arguments before a tool by default", async () => {
    const seen: [string, unknown][] = [];
    const hook = new GuardrailHook((stage, payload) => (seen.push([stage, payload]), true));
    await runBefore([hook], "beforeTool", toolInv({ query: "returns" }));
    await runAfter([hook], "afterTool", toolInv({}), result("ok", "x"));
    await runBefore([hook], "beforeLlm", llmInv);
    expect(seen).toEqual([["args", { query: "returns" }]]);
  });

  it("true passes", async () => {
    await expect(runBefore([new GuardrailHook(() => true)], "beforeTool", toolInv({}))).resolves.toBeNull();
  });

  it("a reason string blocks with GuardrailBlocked(reason, tool, stage)", async () => {
    const error = await runBefore([new GuardrailHook(noSecrets)], "beforeTool", toolInv({ q: "my password" })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GuardrailBlocked);
    expect(error).toMatchObject({ reason: "looks like a password", tool: "search", stage: "args" });
  });

  it("false blocks with the default reason", async () => {
    await expect(runBefore([new GuardrailHook(() => false)], "beforeTool", toolInv({}))).rejects.toMatchObject({
      reason: DEFAULT_BLOCK_REASON,
    });
  });

  it("an async check works the same way", async () => {
    const hook = new GuardrailHook(async () => "nope");
    await expect(runBefore([hook], "beforeTool", toolInv({}))).rejects.toMatchObject({ reason: "nope", stage: "args" });
    await expect(runBefore([new GuardrailHook(async () => true)], "beforeTool", toolInv({}))).resolves.toBeNull();
  });

  it.each([[undefined], [null], [1], [{ ok: true }], [["no"]]])("any other return (%o) is a ToolUsageError", async (verdict) => {
    const hook = new GuardrailHook(() => verdict as never);
    await expect(runBefore([hook], "beforeTool", toolInv({}))).rejects.toThrow(ToolUsageError);
  });

  it("a ToolUsageError is a hook bug: dispatch logs it at ERROR", async () => {
    await runBefore([new GuardrailHook(() => 0 as never)], "beforeTool", toolInv({})).catch(() => undefined);
    expect(captured.logs.map((l) => [l.level, l.fields.errorKind])).toEqual([["error", "ToolUsageError"]]);
  });

  it("checks the value of an ok result at the result stage", async () => {
    const hook = new GuardrailHook(noSecrets, { on: ["args", "result"] });
    const ok = result("ok", "free within 30 days");
    await expect(runAfter([hook], "afterTool", toolInv({}), ok)).resolves.toBe(ok);
    await expect(runAfter([hook], "afterTool", toolInv({}), result("ok", { password: "x" }))).rejects.toMatchObject({
      stage: "result",
      tool: "search",
    });
  });

  it("skips failed results at the result stage", async () => {
    let calls = 0;
    const hook = new GuardrailHook(() => (calls++, false), { on: ["result"] });
    await expect(runAfter([hook], "afterTool", toolInv({}), result("error", { password: "leaked" }))).resolves.toBeDefined();
    expect(calls).toBe(0);
  });

  it("checks the LLMRequest before a model call and the LLMResponse after it, with tool null", async () => {
    const seen: [string, unknown][] = [];
    const hook = new GuardrailHook((stage, payload) => (seen.push([stage, payload]), stage === "llm_request" || "leak"), {
      on: ["llm_request", "llm_response"],
    });
    await runBefore([hook], "beforeLlm", llmInv);
    await expect(runAfter([hook], "afterLlm", llmInv, response)).rejects.toMatchObject({
      stage: "llm_response",
      tool: null,
      reason: "leak",
    });
    expect(seen).toEqual([
      ["llm_request", llmInv.request],
      ["llm_response", response],
    ]);
  });

  it("a block logs stage and tool at WARNING and the reason only at DEBUG", async () => {
    await runBefore([new GuardrailHook(() => "quoted: hunter2")], "beforeTool", toolInv({})).catch(() => undefined);
    const warn = captured.logs.filter((l) => l.level === "warn");
    expect(warn).toHaveLength(1);
    expect(warn[0]!.fields).toEqual({ hook: "guardrail", stage: "args", tool: "search" });
    expect(JSON.stringify(warn)).not.toContain("hunter2");
    const debug = captured.logs.filter((l) => l.level === "debug");
    expect(debug.some((l) => l.fields.reason === "quoted: hunter2")).toBe(true);
    expect(captured.logs.filter((l) => l.level === "error")).toEqual([]);
  });

  it("rejects an unknown stage with ConfigError", () => {
    expect(() => new GuardrailHook(() => true, { on: ["args", "output" as GuardrailStage] })).toThrow(ConfigError);
  });
});
