// The auto-format post-hook: prettier as argv, only for a successful edit of a matching file.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ActionManager, autoFormat, CodingToolkit } from "@hooklens/runtime";

const prettier = fileURLToPath(new URL("../../node_modules/.bin/prettier", import.meta.url));
const format = autoFormat({ command: [prettier, "--write"] }); // default: ["prettier", "--write"] from PATH, .ts/.tsx/.mts/.cts

const root = mkdtempSync(path.join(tmpdir(), "hooklens-format-"));
const file = path.join(root, "a.ts");
writeFileSync(file, "const   x = {a:1}\n");

// Called with the real arguments it formats the file (and returns undefined).
await format("editor", "write", { filePath: file }, { success: true });
assert.equal(readFileSync(file, "utf8"), "const x = { a: 1 };\n");

// Trap, as built: a factory or toolkit post chain passes {} as the arguments, so it never formats.
const toolkit = new CodingToolkit({ workspaceRoot: root, notify: false }).post("editor", format);
const manager = new ActionManager(toolkit.bind());
await manager.invoke({ function: "editor", arguments: { action: "write", filePath: "b.ts", content: "let   y=1\n" } });
assert.equal(readFileSync(path.join(root, "b.ts"), "utf8"), "let   y=1\n");
console.log("formatted directly; left alone through the post chain");
rmSync(root, { recursive: true, force: true });
