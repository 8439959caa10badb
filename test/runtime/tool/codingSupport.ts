import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { testTempDir } from "../../helpers/tempDir.js";
import { ActionManager, CodingToolkit, type CodingToolkitOptions, type Tool, type ToolArgs } from "@hooklens/runtime";

/** A workspace holding `inside.txt` and, beside it, an "outside" folder holding a secret. */
export function layout(prefix = "hooklens-sandbox-"): { root: string; outside: string } {
  const base = testTempDir(prefix);
  const root = path.join(base, "ws");
  const outside = path.join(base, "outside");
  mkdirSync(root);
  mkdirSync(outside);
  writeFileSync(path.join(outside, "secret.txt"), "OUTSIDE\n");
  writeFileSync(path.join(root, "inside.txt"), "inside\n");
  return { root, outside };
}

/** The coding tools of a toolkit on `root`, by name. */
export function tools(root: string, options: CodingToolkitOptions = {}): Map<string, Tool> {
  return new Map(new CodingToolkit({ workspaceRoot: root, notify: false, ...options }).bind().map((tool) => [tool.function, tool]));
}

/** One call of a coding tool through an ActionManager; its response. */
export async function call(all: Map<string, Tool>, name: string, args: ToolArgs): Promise<ToolArgs> {
  const invocation = await new ActionManager([...all.values()]).invoke({ function: name, arguments: args });
  if (invocation.status === "failed") throw invocation.error;
  return invocation.response as ToolArgs;
}
