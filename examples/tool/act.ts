// act(): authorize → TOOL_PRE → invoke → TOOL_POST / TOOL_ERROR → messages.
import assert from "node:assert/strict";
import { act, HookPoint, PermissionError, Session, Tool, ToolCallAction } from "@hooklens/runtime";

const session = new Session();
const bus = session.hooks; // create the bus BEFORE the branch: branches included earlier never get it
const branch = session.newBranch();

const seen: string[] = [];
bus.on(HookPoint.TOOL_PRE, ({ toolName, callId, argsSummary }) => {
  seen.push(`pre ${toolName} ${callId.slice(0, 8)} ${argsSummary}`);
  if (toolName === "deploy") throw new PermissionError("no deploys today");
});
bus.on(
  HookPoint.TOOL_POST,
  ({ toolName, callId, resultSummary }) => void seen.push(`post ${toolName} ${callId.slice(0, 8)} ${resultSummary}`),
);
bus.on(
  HookPoint.TOOL_ERROR,
  ({ toolName, callId, error }) => void seen.push(`error ${toolName} ${callId.slice(0, 8)} ${(error as Error).message}`),
);
session.gate((subject) => !(subject instanceof ToolCallAction && subject.function === "rm"));

branch.registerTools([
  new Tool({ funcCallable: (args: { a: number; b: number }) => args.a / args.b, name: "divide" }),
  new Tool({
    funcCallable: () => {
      throw new Error("division by zero");
    },
    name: "explode",
  }),
  new Tool({ funcCallable: () => "deployed", name: "deploy" }),
  new Tool({ funcCallable: () => "removed", name: "rm" }),
]);

console.log(await act(branch, { function: "divide", arguments: { a: 1, b: 4 } })); // { function: 'divide', arguments: {...}, output: 0.25 }

// A throwing tool fires TOOL_ERROR; with suppressErrors the error becomes the output.
const failed = await act(branch, { function: "explode", arguments: {} }, { suppressErrors: true });
assert.deepEqual(failed.output, { error: "division by zero", message: "Error invoking action 'explode': division by zero" });

// A TOOL_PRE guard blocks even with suppressErrors, and nothing is recorded.
await assert.rejects(act(branch, { function: "deploy", arguments: {} }, { suppressErrors: true }), PermissionError);

// A governance denial returns a denial result and fires no bus point.
assert.deepEqual((await act(branch, { function: "rm", arguments: {} })).output, { error: "denied by governance gate", function: "rm" });

// The same callId links a TOOL_PRE to its TOOL_POST or TOOL_ERROR; drop it to compare the rest.
assert.deepEqual(
  seen.map((line) =>
    line
      .split(" ")
      .filter((_, i) => i !== 2)
      .join(" "),
  ),
  ['pre divide {"a":1,"b":4}', "post divide 0.25", "pre explode {}", "error explode division by zero", "pre deploy {}"],
);

// Branch.act: always a list; concurrent by default, errors suppressed by default.
const results = await branch.act(
  [
    { function: "divide", arguments: { a: 9, b: 3 } },
    { function: "explode", arguments: {} },
  ],
  { strategy: "sequential" },
);
console.log(results.map((result) => result.output));
console.log(branch.messages.map((message) => message.role).join(", "));
