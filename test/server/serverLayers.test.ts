// Issue 34: the analyzer is an engine that names no library, with one pack per hook library above
// it; server/src has no value-import cycle and no file over 400 lines.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/fixtureProject.js";
import { importCycles, importGraph, type ImportGraph } from "../helpers/importGraph.js";

const ROOT = join(REPO_ROOT, "server/src");
let graph: ImportGraph | null = null;
const serverGraph = (): ImportGraph => (graph ??= importGraph(join(REPO_ROOT, "server/tsconfig.json"), ROOT));

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith(".ts") ? [path] : [];
  });
}

describe("server/src layering", () => {
  it("no value-import cycle", () => {
    expect(importCycles(serverGraph())).toEqual([]);
  }, 120_000);

  it("the engine imports nothing from the packs, nor a hook library", () => {
    const upward = [...serverGraph()]
      .filter(([file]) => file.startsWith("analyzer/engine/"))
      .flatMap(([file, edges]) => [...edges.keys()].filter((target) => !target.startsWith("analyzer/engine/")).map((target) => `${file} → ${target}`));
    expect(upward).toEqual([]);
    const naming = sourceFiles(join(ROOT, "analyzer/engine")).filter((file) => /@hooklens\/runtime|HookPoint|HookBus/.test(readFileSync(file, "utf8")));
    expect(naming).toEqual([]);
  }, 120_000);

  it("has no source file over 400 lines", () => {
    const long = sourceFiles(ROOT).filter((file) => readFileSync(file, "utf8").split("\n").length > 400);
    expect(long).toEqual([]);
  });
});
