// The loader: named handlers and per-point overrides of the default hooks.
import assert from "node:assert/strict";
import { DEFAULT_HOOKS, HookPoint, buildSessionBus, registerHandler, resolveHandler } from "@hooklens/runtime";

console.log(Object.keys(DEFAULT_HOOKS)); // session.start, session.end, message.add, branch.create

registerHandler("auditToolCall", async ({ toolName }: { toolName: string }) => console.log(`audit: ${toolName}`));

const bus = buildSessionBus({
  "tool.pre": ["auditToolCall"], // a non-default point: added
  "message.add": [], // an empty list disables the default persistMessage
});
assert.deepEqual(bus.handlersFor(HookPoint.MESSAGE_ADD), []);
assert.equal(bus.handlersFor(HookPoint.SESSION_START).length, 1); // default kept
await bus.emit(HookPoint.TOOL_PRE, { toolName: "search", callId: "c1", argsSummary: "{}" });

// Declarations are checked: unknown points, non-lists and unknown names are errors.
assert.throws(() => buildSessionBus({ TOOL_PRE: ["auditToolCall"] }), /Unknown hook point 'TOOL_PRE'/);
assert.throws(() => resolveHandler("auditToolcall"), /Registered: \[.*auditToolCall/);
