// AgentSpec hooks and the factory chain: security first and again, dict-only post, unwired error hooks.
import assert from "node:assert/strict";
import { ActionManager, AgentSpec, attachHooks, Tool } from "@hooklens/runtime";

const calls: string[] = [];
const spec = new AgentSpec()
  .pre("*", () => void calls.push("pre *"))
  .pre("search", (_tool, _action, args) => (calls.push("pre search"), { ...args, limit: 5 }))
  .pre("search_tool", () => void calls.push("pre search_tool (alias)"))
  .post("search", (_tool, action, args, result) => {
    calls.push(`post action=${JSON.stringify(action)} args=${JSON.stringify(args)}`);
    return { ...result, reviewed: true };
  })
  .onError("search", () => void calls.push("never runs"));
spec.hookHandlers.set("security_pre:*", [() => void calls.push("security")]);

const search = (args: Record<string, unknown>) => ({ hits: [`result for ${String(args["q"])}`], limit: args["limit"] });
const manager = new ActionManager([attachHooks(new Tool({ funcCallable: search, name: "search_tool" }), spec, "search")]);

const call = await manager.invoke({ function: "search_tool", arguments: { q: "hooks" } });
assert.deepEqual(calls, [
  "security",
  "pre *",
  "pre search",
  "pre search_tool (alias)",
  "security", // the security hooks run again after the user pre-hooks
  'post action="" args={}', // post-hooks get an empty action and empty arguments
]);
assert.deepEqual(call.response, { hits: ["result for hooks"], limit: 5, reviewed: true });
console.log("hook order:", calls.join(" → "));

// A result that is not a plain object skips every post-hook.
calls.length = 0;
const text = new ActionManager([attachHooks(new Tool({ funcCallable: () => "plain text", name: "search" }), spec, "search")]);
await text.invoke({ function: "search", arguments: {} });
assert.equal(
  calls.some((entry) => entry.startsWith("post")),
  false,
);

// error: hooks are stored, never executed.
const failing = new ActionManager([
  attachHooks(
    new Tool({
      funcCallable: () => {
        throw new Error("boom");
      },
      name: "search",
    }),
    spec,
    "search",
  ),
]);
assert.equal((await failing.invoke({ function: "search", arguments: {} })).status, "failed");
assert.equal(calls.includes("never runs"), false);
