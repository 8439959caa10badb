// A middleware hook that answers known queries itself: the tool never runs for them.
import assert from "node:assert/strict";
import { z } from "zod";
import { BranchTools, Executor, Hook, Session, ShortCircuit, Tool, type ToolInvocation } from "@hooklens/runtime";

/** Answers known queries without running the tool. */
export class CachedAnswers extends Hook {
  override name = "cached_answers";

  async beforeTool(inv: ToolInvocation): Promise<ShortCircuit | null> {
    if (inv.call.arguments["query"] === "returns") return new ShortCircuit(["returns: free within 30 days"]);
    return null;
  }
}

let searches = 0;
const tools = new BranchTools(new Session().newBranch());
tools.register(
  new Tool({
    name: "search",
    description: "Search the help centre.",
    requestOptions: z.object({ query: z.string() }),
    funcCallable: ({ query }: { query: string }) => [`${query}: ${++searches} hit(s)`],
  }),
);
const executor = new Executor(tools, { hooks: [new CachedAnswers()] });
const ctx = executor.context();
const cached = await executor.callTool({ name: "search", arguments: { query: "returns" } }, ctx);
const searched = await executor.callTool({ name: "search", arguments: { query: "shipping" } }, ctx);
assert.deepEqual([cached.value, searched.value, searches], [["returns: free within 30 days"], ["shipping: 1 hit(s)"], 1]);
console.log(cached.value, searched.value);
