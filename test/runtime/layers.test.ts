// Issue 34, item 2: inside the runtime, layers point down. The package barrel (runtime/src/index.ts)
// is the public entry only, never imported from inside; and no module of runtime/src takes part in
// a value-import cycle (a cycle makes load order decide which module sees the other half-built).
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/fixtureProject.js";
import { importCycles, importGraph, type ImportEdge, type ImportGraph } from "../helpers/importGraph.js";

const ROOT = join(REPO_ROOT, "runtime/src");
let graph: ImportGraph | null = null;
const runtimeGraph = (): ImportGraph => (graph ??= importGraph(join(REPO_ROOT, "runtime/tsconfig.json"), ROOT));

describe("runtime/src imports", () => {
  it("no file imports the package barrel, not even for a type", () => {
    const importers = [...runtimeGraph()].filter(([, edges]) => edges.has("index.ts")).map(([file, edges]) => `${file}:${edges.get("index.ts")!.line}`);
    expect(importers).toEqual([]);
  }, 120_000);

  it("no value-import cycle", () => {
    expect(importCycles(runtimeGraph())).toEqual([]);
  }, 120_000);

  it("the check sees a cycle and a barrel import when there is one", () => {
    const value: ImportEdge = { line: 1, value: true };
    const typeOnly: ImportEdge = { line: 1, value: false };
    const planted: ImportGraph = new Map([
      ["a.ts", new Map([["b.ts", value]])],
      ["b.ts", new Map([["c.ts", value]])],
      ["c.ts", new Map([["a.ts", value], ["index.ts", value]])],
      ["d.ts", new Map([["d.ts", value], ["e.ts", typeOnly]])],
      ["e.ts", new Map([["d.ts", value]])],
      ["index.ts", new Map([["a.ts", value]])],
    ]);
    // d ⇄ e only through a type import: no cycle at load time.
    expect(importCycles(planted)).toEqual([["a.ts", "b.ts", "c.ts", "index.ts"], ["d.ts"]]);
  });
});
