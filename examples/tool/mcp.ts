// createAgent: permissions and guards for the agent's own tools, none for MCP tools registered after them.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { AgentSpec, createAgent, PermissionPolicy } from "@hooklens/runtime";

const calls: string[] = [];
const server = {
  listTools: () => [
    { name: "drop_database", description: "Drops a database", inputSchema: { type: "object", properties: { name: { type: "string" } } } },
  ],
  callTool: (name: string, args: Record<string, unknown>) => (calls.push(`${name}(${String(args["name"])})`), { dropped: args["name"] }),
};

const cwd = mkdtempSync(path.join(tmpdir(), "hooklens-agent-"));
const spec = AgentSpec.coding({
  cwd,
  permissions: PermissionPolicy.readOnly(),
  mcpServers: { ops: server },
});
const branch = await createAgent(spec);
console.log([...branch.actionManager.registry.keys()]); // reader, editor, bash, search, drop_database

const [edit, drop] = await branch.act([
  { function: "editor", arguments: { action: "write", filePath: "a.txt", content: "x" } },
  { function: "drop_database", arguments: { name: "prod" } },
]);
assert.match(String((edit!.output as Record<string, unknown>)["error"]), /^Permission denied for editor.write/);
// The MCP tool got no permission check and no guard:
assert.deepEqual(drop!.output, { dropped: "prod" });
assert.deepEqual(calls, ["drop_database(prod)"]);
console.log(drop!.output);
rmSync(cwd, { recursive: true, force: true });
