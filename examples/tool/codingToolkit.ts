// The CodingToolkit: workspace-confined reader/editor/bash/search with its own hook order.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ActionManager, CodingToolkit, guardDestructive, type PreHookChain } from "@hooklens/runtime";

const root = mkdtempSync(path.join(tmpdir(), "hooklens-example-"));
const toolkit = new CodingToolkit({ workspaceRoot: root })
  .securityPre("bash", guardDestructive)
  .pre("*", function logAll() {})
  .pre("bash", function bashOnly() {});

const manager = new ActionManager(toolkit.bind()); // bind() also adds the notify post-hook on "*"
// User pre-hooks run exact name first, then wildcard (the reverse of the agent factory).
const order = (manager.registry.get("bash")!.preprocessor as PreHookChain).hooks.map((hook) => hook.name);
assert.deepEqual(order, ["guardDestructive", "bashOnly", "logAll", "guardDestructive"]);

const run = async (fn: string, args: Record<string, unknown>) => (await manager.invoke({ function: fn, arguments: args })).response;

console.log(await run("editor", { action: "write", filePath: "src/hello.ts", content: "export const hello = 'world';\n" }));
assert.deepEqual(await run("search", { pattern: "hello" }), {
  success: true,
  matches: [{ file: "src/hello.ts", line: 1, text: "export const hello = 'world';" }],
  filesSearched: 1,
  truncated: false,
});

// bash: argv without a shell, inside the workspace, with a timeout.
const listing = (await run("bash", { command: "ls src" })) as Record<string, unknown>;
assert.equal(listing["stdout"], "hello.ts\n");
// Shell syntax and paths outside the workspace are refused as results, not run.
assert.equal(((await run("bash", { command: "ls | sh" })) as Record<string, unknown>)["success"], false);
assert.equal(((await run("reader", { path: "../../etc/passwd" })) as Record<string, unknown>)["success"], false);
console.log("ok");
rmSync(root, { recursive: true, force: true });
