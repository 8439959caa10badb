import { Writable } from "node:stream";
import pino from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  LLMInvocation,
  LoggingHook,
  Executor,
  NodeInvocation,
  configureRedaction,
  REDACTED,
  ToolInvocation,
  ToolResult,
  createRunContext,
  runAfter,
  runBefore,
  runOnError,
  type ToolSpec,
} from "@hooklens/runtime";
import { captureLogs, type CapturedLog } from "../../helpers/captureLogs.js";
import { branchTools } from "./support.js";

interface PinoLine {
  level: number;
  msg: string;
  event: string;
  fields: Record<string, unknown>;
}

/** A real pino logger writing JSON lines into an array. */
function pinoLines(level = "debug"): { logger: pino.Logger; lines: PinoLine[] } {
  const lines: PinoLine[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split("\n")) if (line) lines.push(JSON.parse(line) as PinoLine);
      done();
    },
  });
  return { logger: pino({ level }, stream), lines };
}

const INFO = 30;
const WARN = 40;
const ERROR = 50;

const ctx = createRunContext({ runId: "run-1", threadId: "t1" });
const search: ToolSpec = { name: "search", kind: "web", confirm: false, cacheable: false, schema: null };
const deleteFile: ToolSpec = { name: "delete_file", kind: "fs", confirm: true, cacheable: false, schema: null };
const toolInv = (spec: ToolSpec, args: Record<string, unknown>) =>
  new ToolInvocation(spec, { id: "call-9", name: spec.name, arguments: args }, ctx);
const llmInv = () =>
  new LLMInvocation({ messages: [{ role: "user", content: "my card is 4111" }], stage: "answer" }, "openai", "gpt-test", ctx);
const nodeInv = () => new NodeInvocation("support", "classify", { customer: "Ada Lovelace" }, ctx);

describe("LoggingHook with a pino logger", () => {
  it("logs tool.start with tool, kind, run and call ids and redacted arguments", async () => {
    const { logger, lines } = pinoLines();
    await runBefore([new LoggingHook({ logger })], "beforeTool", toolInv(search, { query: "returns", api_key: "sk-1" }));
    expect(lines).toHaveLength(1);
    const fields = { runId: "run-1", callId: "call-9", tool: "search", kind: "web", args: { query: "returns", api_key: REDACTED } };
    expect(lines[0]).toMatchObject({ level: INFO, event: "tool.start", fields });
    expect(lines[0]!.msg).toBe(`tool.start ${JSON.stringify(fields)}`);
    expect(JSON.stringify(lines)).not.toContain("sk-1");
  });

  it("withholds the arguments of confirm tools (argsWithheld: true)", async () => {
    const { logger, lines } = pinoLines();
    await runBefore([new LoggingHook({ logger })], "beforeTool", toolInv(deleteFile, { path: "/etc/passwd" }));
    expect(lines[0]!.fields).toEqual({ runId: "run-1", callId: "call-9", tool: "delete_file", kind: "fs", argsWithheld: true });
    expect(lines[0]!.msg).not.toContain("/etc/passwd");
  });

  it("logs tool.finish with status, attempts, cached and latency, never the result value", async () => {
    const { logger, lines } = pinoLines();
    const hooks = [new LoggingHook({ logger })];
    const inv = toolInv(search, { query: "q" });
    await runBefore(hooks, "beforeTool", inv);
    const result = new ToolResult({
      callId: "call-9",
      tool: "search",
      status: "ok",
      value: "TOP SECRET RESULT",
      attempts: 1,
      cached: false,
    });
    expect(await runAfter(hooks, "afterTool", inv, result)).toBe(result);
    const finish = lines[1]!;
    expect(finish).toMatchObject({ level: INFO, event: "tool.finish" });
    expect(finish.fields).toEqual({
      runId: "run-1",
      callId: "call-9",
      tool: "search",
      kind: "web",
      status: "ok",
      attempts: 1,
      cached: false,
      latencyMs: expect.any(Number),
    });
    expect(JSON.stringify(finish)).not.toContain("TOP SECRET");
  });

  it("logs a failed result as tool.finish at WARNING with its error kind", async () => {
    const { logger, lines } = pinoLines();
    const failed = new ToolResult({
      callId: "call-9",
      tool: "search",
      status: "error",
      value: { error: "db password wrong" },
      errorKind: "GateDenied",
    });
    await runAfter([new LoggingHook({ logger })], "afterTool", toolInv(search, {}), failed);
    expect(lines[0]).toMatchObject({
      level: WARN,
      event: "tool.finish",
      fields: { status: "error", errorKind: "GateDenied", latencyMs: null },
    });
    expect(JSON.stringify(lines)).not.toContain("db password");
  });

  it("logs tool.error at WARNING with the error kind, never the exception message", async () => {
    const { logger, lines } = pinoLines();
    class QuotaError extends Error {}
    await runOnError([new LoggingHook({ logger })], "onToolError", toolInv(search, {}), new QuotaError("user ada@example.com over quota"));
    expect(lines[0]).toMatchObject({
      level: WARN,
      event: "tool.error",
      fields: { runId: "run-1", callId: "call-9", tool: "search", kind: "web", errorKind: "QuotaError" },
    });
    expect(JSON.stringify(lines)).not.toContain("ada@example.com");
  });

  it("logs error lines at the configured level when it is above WARNING", async () => {
    const { logger, lines } = pinoLines();
    const hook = new LoggingHook({ logger, level: "error" });
    await runBefore([hook], "beforeTool", toolInv(search, {}));
    await runOnError([hook], "onToolError", toolInv(search, {}), new Error("x"));
    expect(lines.map((l) => l.level)).toEqual([ERROR, ERROR]);
  });

  it("logs start and finish at the configured level, errors never below WARNING", async () => {
    const { logger, lines } = pinoLines();
    const hook = new LoggingHook({ logger, level: "debug" });
    await runBefore([hook], "beforeNode", nodeInv());
    await runOnError([hook], "onNodeError", nodeInv(), new Error("x"));
    expect(lines.map((l) => l.level)).toEqual([20, WARN]);
  });

  it("logs llm.start and llm.finish with provider, model, stage, token counts and finish reason, never message content", async () => {
    const { logger, lines } = pinoLines();
    const hooks = [new LoggingHook({ logger })];
    const inv = llmInv();
    await runBefore(hooks, "beforeLlm", inv);
    await runAfter(hooks, "afterLlm", inv, {
      content: "your card 4111 is fine",
      finishReason: "stop",
      usage: { inputTokens: 12, outputTokens: 7 },
    });
    expect(lines[0]).toMatchObject({
      event: "llm.start",
      fields: { runId: "run-1", provider: "openai", model: "gpt-test", stage: "answer" },
    });
    expect(lines[1]!.fields).toEqual({
      runId: "run-1",
      provider: "openai",
      model: "gpt-test",
      stage: "answer",
      inputTokens: 12,
      outputTokens: 7,
      finishReason: "stop",
      latencyMs: expect.any(Number),
    });
    expect(JSON.stringify(lines)).not.toContain("4111");
  });

  it("logs llm.error at WARNING with the error kind", async () => {
    const { logger, lines } = pinoLines();
    await runOnError([new LoggingHook({ logger })], "onLlmError", llmInv(), new TypeError("bad key sk-2"));
    expect(lines[0]).toMatchObject({
      level: WARN,
      event: "llm.error",
      fields: { provider: "openai", model: "gpt-test", errorKind: "TypeError" },
    });
    expect(JSON.stringify(lines)).not.toContain("sk-2");
  });

  it("logs node.start and node.finish with flow, node and the keys the node updated, never state values", async () => {
    const { logger, lines } = pinoLines();
    const hooks = [new LoggingHook({ logger })];
    const inv = nodeInv();
    await runBefore(hooks, "beforeNode", inv);
    await runAfter(hooks, "afterNode", inv, { topic: "refund for Ada Lovelace", priority: "high" });
    expect(lines[0]).toMatchObject({ event: "node.start", fields: { runId: "run-1", flow: "support", node: "classify" } });
    expect(lines[1]).toMatchObject({
      event: "node.finish",
      fields: { runId: "run-1", flow: "support", node: "classify", updated: ["topic", "priority"] },
    });
    expect(JSON.stringify(lines)).not.toContain("Lovelace");
  });

  it("logs node.error at WARNING", async () => {
    const { logger, lines } = pinoLines();
    await runOnError([new LoggingHook({ logger })], "onNodeError", nodeInv(), new Error("state was {customer: Ada}"));
    expect(lines[0]).toMatchObject({ level: WARN, event: "node.error", fields: { flow: "support", node: "classify", errorKind: "Error" } });
    expect(JSON.stringify(lines)).not.toContain("Ada");
  });

  it("every line carries the run id", async () => {
    const { logger, lines } = pinoLines();
    const hook = new LoggingHook({ logger });
    await runBefore([hook], "beforeTool", toolInv(search, {}));
    await runBefore([hook], "beforeLlm", llmInv());
    await runBefore([hook], "beforeNode", nodeInv());
    await runOnError([hook], "onLlmError", llmInv(), new Error());
    expect(lines.map((l) => l.fields.runId)).toEqual(["run-1", "run-1", "run-1", "run-1"]);
  });

  it("logs Maps, Sets and bigints in arguments as JSON data, redacted", async () => {
    const { logger, lines } = pinoLines();
    const args = {
      filters: new Map<string, unknown>([
        ["topic", "returns"],
        ["apiKey", "k"],
      ]),
      ids: new Set([1, 2]),
      big: 10n,
    };
    await runBefore([new LoggingHook({ logger })], "beforeTool", toolInv(search, args));
    expect(lines[0]!.fields["args"]).toEqual({ filters: { topic: "returns", apiKey: REDACTED }, ids: [1, 2], big: "10" });
  });

  it("adds custom redaction patterns to the shared rules", async () => {
    const { logger, lines } = pinoLines();
    await runBefore([new LoggingHook({ logger, redact: ["query"] })], "beforeTool", toolInv(search, { query: "q", token: "t", page: 2 }));
    expect(lines[0]!.fields.args).toEqual({ query: REDACTED, token: REDACTED, page: 2 });
  });

  it("keeps only its own patterns when the shared rules are turned off explicitly", async () => {
    const { logger, lines } = pinoLines();
    configureRedaction({ enabled: false });
    try {
      await runBefore([new LoggingHook({ logger, redact: ["query"] })], "beforeTool", toolInv(search, { query: "q", token: "t" }));
    } finally {
      configureRedaction();
    }
    expect(lines[0]!.fields.args).toEqual({ query: REDACTED, token: "t" });
  });

  // The leaks issue 14 found in LoggingHook, one per case.
  it.each([
    ["header pairs given as arrays", { headers: [["Authorization", "Bearer s3cr3t-one"], ["accept", "json"]] }, "s3cr3t-one"],
    ["raw header lists", { rawHeaders: ["X-Api-Key", "s3cr3t-two", "Host", "a"] }, "s3cr3t-two"],
    ["tokens in URL queries", { url: "https://api.example.com/items?access_token=s3cr3t-three&page=1" }, "s3cr3t-three"],
    ["user:pass@ in URLs", { url: "postgres://app:s3cr3t-four@db.internal:5432/app" }, "s3cr3t-four"],
    ["Bearer inside a command string", { command: "curl -H 'Authorization: Bearer s3cr3t-five' https://x" }, "s3cr3t-five"],
    ["the key name auth", { auth: "s3cr3t-six" }, "s3cr3t-six"],
    ["the key name credentials", { credentials: { user: "u", pass: "s3cr3t-seven" } }, "s3cr3t-seven"],
    ["the key name bearer", { bearer: "s3cr3t-eight" }, "s3cr3t-eight"],
    ["the key name jwt", { jwt: "s3cr3t-nine" }, "s3cr3t-nine"],
    ["the key name passwd", { passwd: "s3cr3t-ten" }, "s3cr3t-ten"],
  ])("hides %s", async (_case, args, secret) => {
    const { logger, lines } = pinoLines();
    await runBefore([new LoggingHook({ logger })], "beforeTool", toolInv(search, args));
    expect(lines).toHaveLength(1);
    expect(JSON.stringify(lines)).not.toContain(secret);
  });

  it("logs arguments nested 20,000 levels deep without throwing, and the tool call succeeds", async () => {
    const { logger, lines } = pinoLines();
    let deep: Record<string, unknown> = { password: "s3cr3t-deep" };
    for (let i = 0; i < 20_000; i++) deep = { next: deep };
    const executor = new Executor(branchTools({ name: "search", fn: () => "ok" }).tools, { hooks: [new LoggingHook({ logger })] });
    const result = await executor.callTool({ name: "search", arguments: { query: "q", deep } }, executor.context());
    expect(result).toMatchObject({ status: "ok", value: "ok" });
    expect(lines.map((l) => l.event)).toEqual(["tool.start", "tool.finish"]);
    expect(JSON.stringify(lines[0]!.fields.args)).toContain("[too deep]");
  });
});

describe("LoggingHook default logger", () => {
  let logs: CapturedLog[];
  let restore: () => void;
  beforeEach(() => ({ logs, restore } = captureLogs()));
  afterEach(() => restore());

  it("writes to the runtime's logger (the one setLogger installs) at the time of each line", async () => {
    const hook = new LoggingHook();
    await runBefore([hook], "beforeTool", toolInv(search, { query: "q" }));
    expect(logs).toEqual([
      {
        level: "info",
        msg: expect.stringMatching(/^tool\.start \{/),
        fields: { event: "tool.start", fields: { runId: "run-1", callId: "call-9", tool: "search", kind: "web", args: { query: "q" } } },
      },
    ]);
  });
});
