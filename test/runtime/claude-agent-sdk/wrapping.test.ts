// What withHookLens promises besides the signals a real query() shows (query.test.ts): the SDK gets
// exactly what each callback returns or throws, even when recording fails; matchers keep every field;
// options it did not make are left alone. Inputs are typed by the installed SDK.
import { describe, expect, it } from "vitest";
import type { HookCallback, HookInput, Options } from "@anthropic-ai/claude-agent-sdk";
import { SessionObserver } from "@hooklens/runtime";
import { ClaudeHookCall, ClaudePermissionCall, observeQuery, withHookLens } from "@hooklens/runtime/claude-agent-sdk";
import { useCapturedLogs } from "../middleware/support.js";

const logs = useCapturedLogs();
const INPUT = { session_id: "s-1", transcript_path: "/t", cwd: "/w", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "toolu_1" } as HookInput;
const signal = new AbortController().signal;

describe("withHookLens", () => {
  it("keeps every matcher field and event, and wraps only functions", () => {
    const callback: HookCallback = async () => ({});
    const matcher = { matcher: "Bash", timeout: 30, onFailure: "block" as const, hooks: [callback] };
    const options: Options = { model: "m", allowedTools: ["Bash"], hooks: { PreToolUse: [matcher], Stop: [] } };
    const wrapped = withHookLens<Options>(options);
    expect(wrapped).not.toBe(options);
    expect(wrapped.model).toBe("m");
    expect(wrapped.hooks!.PreToolUse![0]).toMatchObject({ matcher: "Bash", timeout: 30, onFailure: "block" });
    expect(wrapped.hooks!.PreToolUse![0]!.hooks[0]).not.toBe(callback);
    expect(wrapped.hooks!.Stop).toEqual([]);
    expect(options.hooks!.PreToolUse![0]!.hooks[0]).toBe(callback);
  });

  it("hands the SDK the very value and the very error, even when every subscriber of the session throws", async () => {
    const observer = new SessionObserver();
    observer.observe(ClaudeHookCall, () => {
      throw new Error("subscriber broke");
    });
    observer.observe(ClaudePermissionCall, () => {
      throw new Error("subscriber broke");
    });
    const output = { hookSpecificOutput: { hookEventName: "PreToolUse" as const, permissionDecision: "deny" as const } };
    const failure = new TypeError("bad policy");
    const wrapped = withHookLens<Options>(
      {
        hooks: { PreToolUse: [{ hooks: [async () => output, async () => Promise.reject(failure)] }] },
        canUseTool: async () => ({ behavior: "allow" as const }),
      },
      { session: observer },
    );
    const [returns, rejects] = wrapped.hooks!.PreToolUse![0]!.hooks;
    await expect(returns!(INPUT, "toolu_1", { signal })).resolves.toBe(output);
    await expect(rejects!(INPUT, "toolu_1", { signal })).rejects.toBe(failure);
    await expect(wrapped.canUseTool!("Bash", { command: "ls" }, { signal, toolUseID: "toolu_1", requestId: "req_1" })).resolves.toEqual({ behavior: "allow" });
    expect(logs.logs.filter((l) => l.msg.includes("subscriber broke"))).toHaveLength(3);
  });

  it("a callback that returns synchronously or throws synchronously is recorded and passed on as it is", async () => {
    const observer = new SessionObserver();
    const sync = (() => ({ continue: false, stopReason: "enough" })) as unknown as HookCallback;
    const throwing = (() => {
      throw new RangeError("sync throw");
    }) as unknown as HookCallback;
    const wrapped = withHookLens<Options>({ hooks: { Stop: [{ hooks: [sync, throwing] }] } }, { session: observer });
    const [first, second] = wrapped.hooks!.Stop![0]!.hooks;
    expect(first!({ ...INPUT, hook_event_name: "Stop" } as HookInput, undefined, { signal })).toEqual({ continue: false, stopReason: "enough" });
    expect(() => second!({ ...INPUT, hook_event_name: "Stop" } as HookInput, undefined, { signal })).toThrow(RangeError);
    await observer.flush();
    expect(observer.byType(ClaudeHookCall).map((c) => [c.event, c.decision, c.reason, c.outcome, c.error?.name ?? null])).toEqual([
      ["Stop", "stop", "enough", "returned", null],
      ["Stop", null, null, "threw", "RangeError"],
    ]);
  });

  it.each([
    ["PreToolUse permissionDecision", { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: "check" } }, "ask", "check"],
    ["PermissionRequest decision.behavior", { hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "deny", message: "nope" } } }, "deny", "nope"],
    ["top-level decision", { decision: "block", reason: "not done" }, "block", "not done"],
    ["async", { async: true }, "async", null],
    ["nothing stated", { systemMessage: "hi" }, null, null],
    ["not an object", undefined, null, null],
  ])("reads the decision an output states: %s", async (_form, output, decision, reason) => {
    const observer = new SessionObserver();
    const wrapped = withHookLens<Options>({ hooks: { PreToolUse: [{ hooks: [async () => output as never] }] } }, { session: observer });
    await wrapped.hooks!.PreToolUse![0]!.hooks[0]!(INPUT, "toolu_1", { signal });
    expect(observer.byType(ClaudeHookCall).map((c) => [c.decision, c.reason])).toEqual([[decision, reason]]);
  });

  it("an aborted call is recorded as aborted when it ends", async () => {
    const observer = new SessionObserver();
    const controller = new AbortController();
    const wrapped = withHookLens<Options>({ hooks: { PreToolUse: [{ hooks: [async () => (controller.abort(), {})] }] } }, { session: observer });
    await wrapped.hooks!.PreToolUse![0]!.hooks[0]!(INPUT, "toolu_1", { signal: controller.signal });
    expect(observer.byType(ClaudeHookCall)[0]).toMatchObject({ outcome: "aborted", toolName: "Bash", toolUseId: "toolu_1", sdkSessionId: "s-1" });
  });

  it("observeQuery leaves a query alone when its options were not made by withHookLens", () => {
    const query = (async function* () {})();
    expect(observeQuery(query, {})).toBe(query);
  });
});
