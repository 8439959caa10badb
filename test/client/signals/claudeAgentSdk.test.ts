// The Claude Agent SDK bridge's signals in the Signals view, streamed over a real socket: the hook
// and permission calls of one tool use group as one call, named by the tool; denials and failures
// are counted and marked as every other call's are. (query.test.ts runs the real SDK; here the
// wrapped callbacks are called as the SDK calls them, with inputs its types describe.)
import { describe, expect, it } from "vitest";
import type { HookInput, Options } from "@anthropic-ai/claude-agent-sdk";
import { Session } from "@hooklens/runtime";
import { withHookLens } from "@hooklens/runtime/claude-agent-sdk";
import { CallGroup } from "../../../client/src/signals/model/callGroup.js";
import { streamRun } from "./agentRun.js";

const signal = new AbortController().signal;
const input = (event: string, toolUseId: string): HookInput =>
  ({ session_id: "sdk-session", transcript_path: "/t", cwd: "/w", hook_event_name: event, tool_name: "Bash", tool_input: { command: "rm -rf build" }, tool_use_id: toolUseId }) as HookInput;

describe("Claude Agent SDK calls in the Signals view", () => {
  it("groups a tool use's hooks and permission call by tool_use_id; a deny is a denial, a throw an error", async () => {
    const { session } = await streamRun(async () => {
      const hookLens = new Session();
      const options = withHookLens<Options>(
        {
          hooks: {
            PreToolUse: [
              {
                matcher: "Bash",
                hooks: [
                  async function guard(hookInput) {
                    const command = (hookInput as { tool_input: { command: string } }).tool_input.command;
                    return command.startsWith("rm") && hookInput.session_id === "sdk-session" && (hookInput as { tool_use_id: string }).tool_use_id === "toolu_2"
                      ? { hookSpecificOutput: { hookEventName: "PreToolUse" as const, permissionDecision: "deny" as const, permissionDecisionReason: "no rm" } }
                      : {};
                  },
                ],
              },
            ],
            PostToolUse: [{ hooks: [async function broken(): Promise<never> { throw new Error("audit log is down"); }] }],
          },
          canUseTool: async () => ({ behavior: "allow" as const }),
        },
        { session: hookLens },
      );
      const [guard] = options.hooks!.PreToolUse![0]!.hooks;
      const [broken] = options.hooks!.PostToolUse![0]!.hooks;
      await guard!(input("PreToolUse", "toolu_1"), "toolu_1", { signal });
      await options.canUseTool!("Bash", { command: "rm -rf build" }, { signal, toolUseID: "toolu_1", requestId: "r1" });
      await broken!(input("PostToolUse", "toolu_1"), "toolu_1", { signal }).catch(() => undefined);
      await guard!(input("PreToolUse", "toolu_2"), "toolu_2", { signal });
      await hookLens.observer.flush();
    });
    const model = session.model;
    const first = model.group("tool", "toolu_1")!;
    const second = model.group("tool", "toolu_2")!;
    expect(first.members.map((m) => m.facts.kindKey)).toEqual(["ClaudeHookCall", "ClaudePermissionCall", "ClaudeHookCall"]);
    expect([first.errors, first.denials, second.errors, second.denials]).toEqual([1, 0, 0, 1]);
    expect(model.items.filter((item) => item instanceof CallGroup)).toHaveLength(2);
    expect(first.members.map((m) => m.facts.label)).toEqual([
      expect.stringMatching(/^PreToolUse Bash \(.+ ms\)$/),
      expect.stringMatching(/^canUseTool Bash → allow \(.+ ms\)$/),
      expect.stringMatching(/^PostToolUse Bash threw: Error: audit log is down \(.+ ms\)$/),
    ]);
    expect(second.members[0]!.facts).toMatchObject({ problem: "denied", detail: "no rm", hook: "PreToolUse:guard", toolName: "Bash" });
    expect(first.members[2]!.facts).toMatchObject({ problem: "error", detail: "Error: audit log is down", hook: "PostToolUse:broken" });
    expect(model.deniedRows).toBe(1);
  });
});
