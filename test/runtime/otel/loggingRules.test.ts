// Captured contents go out under the same redaction rules as LoggingHook's lines: the arguments a
// span exports are exactly the arguments a LoggingHook logged for the same call (a real pino
// logger beside the real SDK), including the keys only LoggingHook's default key fragments hide.
import { Writable } from "node:stream";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { BranchTools, configureRedaction, DEFAULT_REDACT, Executor, LoggingHook, REDACTION_MASK, Session, Tool } from "@hooklens/runtime";
import { exportToOpenTelemetry } from "@hooklens/runtime/otel";
import { useCapturedLogs } from "../middleware/support.js";
import { memoryTracing } from "./support.js";

useCapturedLogs();
afterEach(() => configureRedaction());

/** Keys the shared rules keep readable but LoggingHook's default fragments (`token`, `key`) hide. */
const FRAGMENT_ONLY = { maxTokens: 256, tokens: ["opaque-refresh-1"], keyboard: "qwerty" };

/** Logged `args` of each `tool.start` line, and the exported arguments of the Executor's span. */
async function loggedAndExported(args: Record<string, unknown>): Promise<{ logged: unknown; exported: unknown }> {
  const starts: unknown[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split("\n")) {
        const parsed = line ? (JSON.parse(line) as { event?: string; fields?: { args?: unknown } }) : null;
        if (parsed?.event === "tool.start") starts.push(parsed.fields?.args);
      }
      done();
    },
  });
  const { provider, spans } = memoryTracing();
  const session = new Session();
  const tools = new BranchTools(session.newBranch()).register(new Tool({ name: "configure", funcCallable: () => "done" }));
  const executor = new Executor(tools, { hooks: [new LoggingHook({ logger: pino({ level: "info" }, stream) })], signals: session });
  const exported = exportToOpenTelemetry(session, { tracer: provider.getTracer("test"), captureContent: true });
  await executor.callTool({ name: "configure", arguments: args, id: "call-1" }, executor.context({ runId: "run-1" }));
  await exported.end();
  const span = spans().find((s) => s.attributes["gen_ai.tool.call.id"] === "call-1")!;
  expect(starts).toHaveLength(1);
  return { logged: starts[0], exported: JSON.parse(String(span.attributes["gen_ai.tool.call.arguments"])) };
}

describe("captured contents under LoggingHook's redaction rules", () => {
  it("the exported arguments are the logged ones: shared rules, configured keys and the default key fragments", async () => {
    configureRedaction({ keys: ["ssn"] });
    const args = { ...FRAGMENT_ONLY, user: "ada", password: "hunter2", ssn: "078-05-1120", note: "sent Bearer sk-live-0123456789abcdefghijklmnop" };
    const { logged, exported } = await loggedAndExported(args);
    expect(exported).toEqual(logged);
    expect(exported).toMatchObject({ user: "ada", password: REDACTION_MASK, ssn: REDACTION_MASK, maxTokens: REDACTION_MASK, tokens: REDACTION_MASK, keyboard: REDACTION_MASK });
    expect(JSON.stringify(exported)).not.toMatch(/hunter2|078-05|sk-live|opaque-refresh|qwerty/);
  });

  it("with the shared rules off, LoggingHook keeps its key fragments, and so does the export", async () => {
    configureRedaction({ enabled: false });
    const { logged, exported } = await loggedAndExported({ ...FRAGMENT_ONLY, user: "ada", note: "plain" });
    expect(exported).toEqual(logged);
    expect(exported).toEqual({ maxTokens: REDACTION_MASK, tokens: REDACTION_MASK, keyboard: REDACTION_MASK, user: "ada", note: "plain" });
    expect(DEFAULT_REDACT).toEqual(expect.arrayContaining(["key", "token"]));
  });
});
