import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The extension's sources: small files of one job, and no cycle of value imports (a type-only
// import costs nothing at run time and may close a loop).

const root = fileURLToPath(new URL("../../client/src", import.meta.url));

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith(".ts") ? [path] : [];
  });
}

const files = sourceFiles(root);

/** The relative modules a file imports for their values (`import type` and all-`type` specifier lists left out). */
function valueImports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const found: string[] = [];
  for (const match of text.matchAll(/^(?:import|export)\s+(type\s+)?(?:\{([^}]*)\}|[^'";]*?)\s*from\s+"(\.[^"]+)"/gm)) {
    const [, typeOnly, names, target] = match;
    if (typeOnly) continue;
    if (names !== undefined && names.split(",").every((name) => name.trim() === "" || name.trim().startsWith("type "))) continue;
    found.push(resolve(dirname(file), target!.replace(/\.js$/, ".ts")));
  }
  return found;
}

describe("client/src layering", () => {
  it("has no source file over 400 lines", () => {
    const long = files.map((file) => [relative(root, file), readFileSync(file, "utf8").split("\n").length] as const).filter(([, lines]) => lines > 400);
    expect(long).toEqual([]);
  });

  it("has no cycle of value imports", () => {
    const graph = new Map(files.map((file) => [file, valueImports(file).filter((target) => files.includes(target))]));
    const cycles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const visit = (file: string, path: string[]): void => {
      if (state.get(file) === "done") return;
      if (state.get(file) === "open") {
        cycles.push(path.slice(path.indexOf(file)).concat(file).map((f) => relative(root, f)).join(" → "));
        return;
      }
      state.set(file, "open");
      for (const next of graph.get(file)!) visit(next, [...path, file]);
      state.set(file, "done");
    };
    for (const file of files) visit(file, []);
    expect(cycles).toEqual([]);
  });
});
