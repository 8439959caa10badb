// hooklens show prints the Claude Agent SDK bridge's records as calls: what was called about which
// tool use, the decision or the failure, who decided, and the time it took. The rows are the ones
// the bridge really records (wrapped callbacks called as the SDK calls them, into a store).
import { describe, expect, it } from "vitest";
import type { HookInput, Options } from "@anthropic-ai/claude-agent-sdk";
import { InMemorySignalStore, SessionObserver } from "@hooklens/runtime";
import { observeQuery, withHookLens } from "@hooklens/runtime/claude-agent-sdk";
import { formatSignalsText } from "../../../server/src/cli/show.js";

const signal = new AbortController().signal;
const INPUT = { session_id: "s", transcript_path: "/t", cwd: "/w", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "rm -rf /" }, tool_use_id: "toolu_1" } as HookInput;

describe("hooklens show, Claude Agent SDK calls", () => {
  it("prints each hook call, canUseTool call and permission denial as a call with its decision or failure", async () => {
    const observer = new SessionObserver();
    const store = new InMemorySignalStore();
    observer.bindDbPersistence(observer.sessionId, store);
    const options = withHookLens<Options>(
      {
        hooks: {
          PreToolUse: [{ hooks: [async function guard() { return { hookSpecificOutput: { hookEventName: "PreToolUse" as const, permissionDecision: "deny" as const, permissionDecisionReason: "no rm -rf" } }; }] }],
          PostToolUse: [{ hooks: [async function audit(): Promise<never> { throw new TypeError("log closed"); }] }],
        },
        canUseTool: async () => ({ behavior: "allow" as const }),
      },
      { session: observer },
    );
    await options.hooks!.PreToolUse![0]!.hooks[0]!(INPUT, "toolu_1", { signal });
    await options.canUseTool!("Bash", { command: "ls" }, { signal, toolUseID: "toolu_2", requestId: "r" });
    await options.hooks!.PostToolUse![0]!.hooks[0]!({ ...INPUT, hook_event_name: "PostToolUse" } as HookInput, "toolu_2", { signal }).catch(() => undefined);
    const denial = { type: "system", subtype: "permission_denied", tool_name: "Write", tool_use_id: "toolu_3", message: "denied", decision_reason: "a deny rule", uuid: "u", session_id: "s" };
    for await (const _ of observeQuery((async function* () { yield denial as never; })(), options)) void _;
    await observer.flush();
    const lines = formatSignalsText(store.records).split("\n").map((line) => line.replace(/^\S+ {2}\S+ +- {2}/, ""));
    expect(lines.slice(0, 4)).toEqual([
      expect.stringMatching(/^PreToolUse Bash \(tool use toolu_1\) → deny by guard: no rm -rf · [\d.]+ ms$/),
      expect.stringMatching(/^canUseTool Bash \(tool use toolu_2\) → allow by canUseTool · [\d.]+ ms$/),
      expect.stringMatching(/^PostToolUse Bash \(tool use toolu_2\) threw by audit: TypeError: log closed · [\d.]+ ms$/),
      "permission_denied Write (tool use toolu_3): a deny rule",
    ]);
  });
});
