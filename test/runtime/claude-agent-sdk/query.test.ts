// withHookLens and observeQuery around a REAL query() of the installed Claude Agent SDK (its bundled
// Claude Code binary against a scripted Messages API on 127.0.0.1; see realQuery.ts): hooks that
// allow, deny, rewrite the input and throw, and canUseTool, each seen as signals, on a real live
// socket, in a SQLite recording and as OpenTelemetry spans. The binary takes seconds to start on a
// loaded machine, so the timeouts are generous and nothing waits on a clock.
import { SpanStatusCode } from "@opentelemetry/api";
import { describe, expect, it } from "vitest";
import type { HookCallback, HookInput } from "@anthropic-ai/claude-agent-sdk";
import { Session } from "@hooklens/runtime";
import { ClaudeHookCall, ClaudePermissionCall, ClaudeQueryEvent, withHookLens } from "@hooklens/runtime/claude-agent-sdk";
import { exportToOpenTelemetry } from "@hooklens/runtime/otel";
import { SqliteSignalStore } from "@hooklens/runtime/store";
import { streamRun } from "../../client/signals/agentRun.js";
import { testTempDir } from "../../helpers/tempDir.js";
import { memoryTracing } from "../otel/support.js";
import { runQuery } from "./realQuery.js";

const RUN_TIMEOUT = 180_000;
const SECRET = "sk-ant-api03-" + "Q".repeat(40);
const bash = (command: string) => ({ toolName: "Bash", input: { command, description: "scripted" }, finalText: "done" });
const pre = (output: (input: HookInput) => Awaited<ReturnType<HookCallback>>): HookCallback => async (input) => output(input);
const toolInput = (input: HookInput): Record<string, unknown> => (input as { tool_input: Record<string, unknown> }).tool_input;
const calls = (session: Session) => session.observer.byType(ClaudeHookCall);
const resultText = (content: unknown): string => (typeof content === "string" ? content : JSON.stringify(content));

describe("withHookLens on a real query()", () => {
  it(
    "an allowing PreToolUse hook and a PostToolUse hook: signals with event, matcher, tool, tool use id, redacted input and decision; live frames, a SQLite row each and a span each",
    async () => {
      const session = new Session();
      const dbPath = `${testTempDir()}/signals.db`;
      const store = await SqliteSignalStore.open(dbPath);
      session.observer.bindDbPersistence(session.id, store);
      const { provider, spans } = memoryTracing();
      const exported = exportToOpenTelemetry(session, { tracer: provider.getTracer("test") });
      const options = withHookLens(
        {
          allowedTools: ["Bash"],
          includeHookEvents: true,
          hooks: {
            PreToolUse: [{ matcher: "Bash", timeout: 30, hooks: [pre((input) => ({ hookSpecificOutput: { hookEventName: input.hook_event_name as "PreToolUse", permissionDecision: "allow", permissionDecisionReason: "echo is fine" } }))] }],
            PostToolUse: [{ hooks: [async function audit() { return {}; }] }],
          },
        },
        { session },
      );
      let run!: Awaited<ReturnType<typeof runQuery>>;
      const live = await streamRun(async () => {
        run = await runQuery(bash(`echo hi ${SECRET}`), options);
      });
      await exported.end();
      await session.observer.flush();

      expect(run.messages.at(-1)).toMatchObject({ type: "result", subtype: "success" });
      expect(resultText(run.toolResults[0]?.content)).toContain("hi");
      const [preCall, postCall] = calls(session);
      expect(preCall).toMatchObject({ event: "PreToolUse", matcher: "Bash", timeoutSeconds: 30, toolName: "Bash", toolUseId: "toolu_scripted_1", decision: "allow", reason: "echo is fine", outcome: "returned", error: null });
      expect(preCall!.durationMs).toBeGreaterThanOrEqual(0);
      expect(postCall).toMatchObject({ event: "PostToolUse", matcher: null, toolName: "Bash", toolUseId: "toolu_scripted_1", decision: null, outcome: "returned", callback: "audit" });
      expect(calls(session)).toHaveLength(2);

      // Live: the same calls, redacted, in this session.
      const frames = live.session.signals.filter((f) => f.kind === "ClaudeHookCall");
      expect(frames.map((f) => f.payload["event"])).toEqual(["PreToolUse", "PostToolUse"]);
      expect(live.session.sessionId).toBe(session.id);
      const liveText = JSON.stringify(frames);
      expect(liveText).toContain("echo hi");
      expect(liveText).not.toContain(SECRET);

      // SQLite: one row per call, redacted too.
      const rows = store.listSessionSignals(session.id).filter((r) => r.kind === "ClaudeHookCall");
      expect(rows.map((r) => [r.payload["event"], r.payload["decision"] ?? null])).toEqual([["PreToolUse", "allow"], ["PostToolUse", null]]);
      expect(JSON.stringify(rows)).not.toContain(SECRET);
      store.close();

      // OpenTelemetry: a span per call under the session's span, with the SDK's facts as attributes.
      const hookSpans = spans().filter((s) => s.name.startsWith("hook "));
      expect(hookSpans.map((s) => s.name)).toEqual(["hook PreToolUse", "hook PostToolUse"]);
      expect(hookSpans[0]!.attributes).toMatchObject({ "gen_ai.tool.name": "Bash", "gen_ai.tool.call.id": "toolu_scripted_1", "hooklens.sdk.hook.event": "PreToolUse", "hooklens.sdk.hook.matcher": "Bash", "hooklens.sdk.decision": "allow", "hooklens.sdk.outcome": "returned" });
      const root = spans().find((s) => s.name === "session")!;
      expect(hookSpans.every((s) => s.parentSpanContext?.spanId === root.spanContext().spanId)).toBe(true);
    },
    RUN_TIMEOUT,
  );

  it(
    "a denying hook: the tool does not run, and the call is a denial with its reason (a denial span in OpenTelemetry)",
    async () => {
      const session = new Session();
      const { provider, spans } = memoryTracing();
      const exported = exportToOpenTelemetry(session, { tracer: provider.getTracer("test") });
      const options = withHookLens(
        { allowedTools: ["Bash"], hooks: { PreToolUse: [{ matcher: "Bash", hooks: [pre(() => ({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no shell today" } }))] }] } },
        { session },
      );
      const run = await runQuery(bash("echo should-not-run"), options);
      await exported.end();
      expect(run.toolResults[0]).toMatchObject({ is_error: true });
      expect(resultText(run.toolResults[0]?.content)).toContain("no shell today");
      expect(calls(session).map((c) => [c.event, c.decision, c.reason])).toEqual([["PreToolUse", "deny", "no shell today"]]);
      const span = spans().find((s) => s.name === "hook PreToolUse")!;
      expect(span.attributes).toMatchObject({ "hooklens.denial.kind": "ClaudeHookCall", "hooklens.denial.reason": "no shell today" });
    },
    RUN_TIMEOUT,
  );

  it(
    "a hook that rewrites the input (updatedInput spread over tool_input): the rewritten command runs, and the call records the output that rewrote it",
    async () => {
      const session = new Session();
      const options = withHookLens(
        {
          allowedTools: ["Bash"],
          hooks: {
            PreToolUse: [{ matcher: "Bash", hooks: [pre((input) => ({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { ...toolInput(input), command: "echo rewritten" } } }))] }],
          },
        },
        { session },
      );
      const run = await runQuery(bash("echo original"), options);
      expect(resultText(run.toolResults[0]?.content)).toContain("rewritten");
      const [call] = calls(session);
      expect(call!.output).toMatchObject({ hookSpecificOutput: { updatedInput: { command: "echo rewritten" } } });
      expect(call!.input).toMatchObject({ tool_input: { command: "echo original" } });
    },
    RUN_TIMEOUT,
  );

  it(
    "a hook that throws: the SDK gets the very error, the call is recorded as thrown (an error span), and without onFailure the tool still runs",
    async () => {
      const session = new Session();
      const { provider, spans } = memoryTracing();
      const exported = exportToOpenTelemetry(session, { tracer: provider.getTracer("test") });
      const options = withHookLens(
        { allowedTools: ["Bash"], hooks: { PreToolUse: [{ matcher: "Bash", hooks: [async function brokenGuard(): Promise<never> { throw new SyntaxError("policy file is not JSON"); }] }] } },
        { session },
      );
      const run = await runQuery(bash("echo ran-anyway"), options);
      await exported.end();
      expect(calls(session).map((c) => [c.outcome, c.error, c.callback])).toEqual([["threw", { name: "SyntaxError", message: "policy file is not JSON" }, "brokenGuard"]]);
      expect(resultText(run.toolResults[0]?.content)).toContain("ran-anyway");
      const span = spans().find((s) => s.name === "hook PreToolUse")!;
      expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: "policy file is not JSON" });
    },
    RUN_TIMEOUT,
  );

  it(
    "canUseTool: its deny is recorded with the tool, input and message, and the tool does not run",
    async () => {
      const session = new Session();
      const options = withHookLens(
        { canUseTool: async (toolName) => ({ behavior: "deny" as const, message: `${toolName} needs a person` }) },
        { session },
      );
      const run = await runQuery(bash("touch asked.txt"), options);
      expect(run.toolResults[0]).toMatchObject({ is_error: true });
      const [call] = session.observer.byType(ClaudePermissionCall);
      expect(call).toMatchObject({ toolName: "Bash", toolUseId: "toolu_scripted_1", decision: "deny", reason: "Bash needs a person", outcome: "returned" });
      expect(call!.input).toMatchObject({ command: "touch asked.txt" });
    },
    RUN_TIMEOUT,
  );

  it(
    "a tool nothing allows, with no canUseTool: the query's permission_denied message is recorded",
    async () => {
      const session = new Session();
      const options = withHookLens({ hooks: { PostToolUse: [{ hooks: [async () => ({})] }] } }, { session });
      const run = await runQuery(bash("touch refused.txt"), options);
      expect(run.toolResults[0]).toMatchObject({ is_error: true });
      const denied = session.observer.byType(ClaudeQueryEvent).filter((e) => e.subtype === "permission_denied");
      expect(denied).toHaveLength(1);
      expect(denied[0]).toMatchObject({ toolName: "Bash", toolUseId: "toolu_scripted_1", outcome: "denied" });
    },
    RUN_TIMEOUT,
  );

  it(
    "a hook still running when its matcher's timeout is up: the SDK aborts it, and the call is recorded as a timeout when the abort comes",
    async () => {
      const session = new Session();
      let aborted = false;
      const options = withHookLens(
        {
          allowedTools: ["Bash"],
          includeHookEvents: true,
          hooks: {
            PreToolUse: [
              {
                matcher: "Bash",
                timeout: 1,
                hooks: [
                  (_input, _id, { signal }) =>
                    new Promise((resolve) => signal.addEventListener("abort", () => { aborted = true; resolve({}); })),
                ],
              },
            ],
          },
        },
        { session },
      );
      await runQuery(bash("echo after-timeout"), options);
      const [call] = calls(session);
      expect(aborted).toBe(true);
      expect(call).toMatchObject({ event: "PreToolUse", outcome: "timeout", timeoutSeconds: 1 });
      expect(call!.durationMs).toBeGreaterThanOrEqual(950);
    },
    RUN_TIMEOUT,
  );

  it(
    "includeHookEvents: the lifecycle messages of a settings-file command hook are recorded (the SDK sends none for its own callbacks)",
    async () => {
      const session = new Session();
      const settings = { hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command" as const, command: "echo from-settings" }] }] } };
      const options = withHookLens({ allowedTools: ["Bash"], includeHookEvents: true, settings, hooks: { PreToolUse: [{ matcher: "Bash", hooks: [async () => ({})] }] } }, { session });
      await runQuery(bash("echo with-settings-hook"), options);
      const events = session.observer.byType(ClaudeQueryEvent);
      expect(events.map((e) => e.subtype)).toEqual(expect.arrayContaining(["hook_started", "hook_response"]));
      expect(events.find((e) => e.subtype === "hook_response")).toMatchObject({ event: "PreToolUse", outcome: "success" });
      expect(calls(session)).toHaveLength(1);
    },
    RUN_TIMEOUT,
  );
});
