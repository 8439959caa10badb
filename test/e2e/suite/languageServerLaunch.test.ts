import * as assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { SERVER_NODE_FLAGS } from "../../../server/src/launchOptions.js";
import { hookLens } from "./hookLensApi.js";

/** The command line of every process this extension host started whose arguments name `script`, from /proc. */
function childCommandLines(script: string): string[][] {
  const found: string[][] = [];
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      // /proc/<pid>/stat: "pid (name) state ppid …"; the name may hold spaces, so read after its ")".
      const stat = readFileSync(join("/proc", pid, "stat"), "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (parent !== process.pid) continue;
      const args = readFileSync(join("/proc", pid, "cmdline"), "utf8").split("\0").filter(Boolean);
      if (args.some((arg) => arg === script)) found.push(args);
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return found;
}

describe("the language server VS Code starts", () => {
  it("runs with the heap limit and the other Node flags every launcher uses", async () => {
    await hookLens(); // activation awaits the language client's start
    const extension = vscode.extensions.getExtension("hooklens.hooklens")!;
    const servers = childCommandLines(join(extension.extensionPath, "dist", "server.js"));
    assert.equal(servers.length, 1, "one language server process, started by this extension host");
    const args = servers[0]!;
    assert.ok(args.some((arg) => arg.startsWith("--max-old-space-size=")), `a heap limit among ${args.join(" ")}`);
    for (const flag of SERVER_NODE_FLAGS) assert.ok(args.includes(flag), `${flag} among ${args.join(" ")}`);
  });
});
