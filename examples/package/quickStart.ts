import assert from "node:assert/strict";
import { z } from "zod";
import { BranchTools, Executor, HookPoint, Session, Tool } from "@hooklens/runtime";

const session = new Session();
const seen: string[] = [];
// The bus must exist before the branch is created: a branch made earlier never gets it.
session.hooks.on(HookPoint.TOOL_PRE, ({ toolName }) => void seen.push(toolName));

const tools = new BranchTools(session.newBranch());
tools.register(
  new Tool({
    name: "add",
    description: "Adds two numbers.",
    requestOptions: z.object({ a: z.number(), b: z.number() }),
    funcCallable: ({ a, b }: { a: number; b: number }) => a + b,
  }),
);

const executor = new Executor(tools);
const result = await executor.callTool({ name: "add", arguments: { a: 2, b: 3 } }, executor.context());
assert.equal(result.status, "ok");
assert.equal(result.value, 5);
assert.deepEqual(seen, ["add"]);
console.log(`add(2, 3) = ${String(result.value)}; TOOL_PRE saw ${seen.join(", ")}`);
